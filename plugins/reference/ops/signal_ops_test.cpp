// Dft, Lrn and Det on CpuRef against values computed independently in the test: a direct
// O(n^2) DFT in long double over the definition (radix-2, mixed-radix and prime lengths; real and
// complex input; cut, padded, onesided and inverse), LRN's formula written out per element, and
// determinants worked out by hand; f16 through the same double arithmetic.
#include "op_test_harness.hpp"

#include <backplane/element_types.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <vector>

namespace {

using backplane::DataType;
using backplane::DetDescriptor;
using backplane::DftDescriptor;
using backplane::LrnDescriptor;
using backplane::TensorInfo;
using backplane::TensorShape;
using backplane::reference::testing::HostTensor;
using backplane::reference::testing::RunOp;

std::vector<double> Pattern(std::int64_t n, double seed) {
  std::vector<double> values;
  for (std::int64_t k = 0; k < n; ++k) values.push_back(0.5 * std::sin(0.37 * static_cast<double>(k) + seed) + 0.1 * seed);
  return values;
}

// The definition: signals along axis 1 of x [outer, n, inner, parts], as the C header states.
std::vector<double> NaiveDft(const std::vector<double>& x, std::int64_t outer, std::int64_t n, std::int64_t inner,
                             std::int64_t parts, std::int64_t length, std::int64_t bins, bool inverse) {
  std::vector<double> y;
  const long double pi = std::acos(-1.0L);
  for (std::int64_t o = 0; o < outer; ++o) {
    for (std::int64_t k = 0; k < bins; ++k) {
      for (std::int64_t i = 0; i < inner; ++i) {
        std::complex<long double> sum = 0;
        for (std::int64_t t = 0; t < std::min(n, length); ++t) {
          const std::size_t at = static_cast<std::size_t>(((o * n + t) * inner + i) * parts);
          const std::complex<long double> v(x[at], parts == 2 ? x[at + 1] : 0.0);
          const long double angle = (inverse ? 2 : -2) * pi * static_cast<long double>(t * k % length) / length;
          sum += v * std::complex<long double>(std::cos(angle), std::sin(angle));
        }
        if (inverse) sum /= static_cast<long double>(length);
        y.push_back(static_cast<double>(sum.real()));
        y.push_back(static_cast<double>(sum.imag()));
      }
    }
  }
  return y;
}

// Runs a Dft of x [outer, n, inner, parts] along axis 1 in f64 and compares with NaiveDft.
void CheckDft(std::int64_t outer, std::int64_t n, std::int64_t inner, std::int64_t parts, std::int64_t length,
              bool onesided, bool inverse) {
  INFO("n " << n << " parts " << parts << " length " << length << " onesided " << onesided << " inverse " << inverse);
  DftDescriptor d;
  d.axis = 1;
  d.length = length;
  d.onesided = onesided;
  d.inverse = inverse;
  const std::int64_t points = length ? length : n;
  const std::int64_t bins = onesided ? points / 2 + 1 : points;
  const TensorShape shape{outer, n, inner, parts};
  const auto x = Pattern(shape.NumElements(), 0.3 + static_cast<double>(n));
  const auto y = RunOp(d, {HostTensor::From(shape, x, DataType::kFloat64)},
                       {TensorInfo{TensorShape{outer, bins, inner, 2}, DataType::kFloat64}})[0].As<double>();
  const auto expected = NaiveDft(x, outer, n, inner, parts, points, bins, inverse);
  REQUIRE(y.size() == expected.size());
  for (std::size_t i = 0; i < y.size(); ++i) {
    INFO("element " << i);
    CHECK(y[i] == doctest::Approx(expected[i]).epsilon(1e-11).scale(1.0));
  }
}

}  // namespace

TEST_CASE("Dft: radix-2, mixed-radix and prime lengths against the definition (f64)") {
  for (const std::int64_t n : {1, 2, 7, 10, 12, 16, 64, 97, 400}) {
    CheckDft(2, n, 3, 1, 0, false, false);
    CheckDft(1, n, 2, 2, 0, false, false);
    CheckDft(1, n, 2, 2, 0, false, true);
  }
}

TEST_CASE("Dft: cut and zero-padded lengths, onesided bins") {
  CheckDft(2, 10, 1, 1, 16, true, false);   // padded to 16, bins 0..8
  CheckDft(1, 10, 3, 2, 6, false, false);   // the first 6 points
  CheckDft(1, 9, 1, 1, 0, true, false);     // odd length: bins 0..4
  CheckDft(1, 12, 2, 2, 15, false, true);   // inverse, padded, divided by 15
}

TEST_CASE("Dft: f32 of a ramp matches numpy.fft.fft in double within 1e-4 relative") {
  DftDescriptor d;  // axis 1 of [1, 8, 1]: the ramp 0..7
  std::vector<float> ramp{0, 1, 2, 3, 4, 5, 6, 7};
  const auto y = RunOp(d, {HostTensor::F32({1, 8, 1}, ramp)}, {TensorInfo{TensorShape{1, 8, 2}, DataType::kFloat32}})[0]
                     .As<float>();
  // numpy.fft.fft(range(8)): 28, then -4 + 4 cot(pi k / 8) j.
  CHECK(y[0] == doctest::Approx(28.0));
  CHECK(y[1] == doctest::Approx(0.0));
  for (int k = 1; k < 8; ++k) {
    INFO("bin " << k);
    CHECK(y[2 * k] == doctest::Approx(-4.0));
    CHECK(y[2 * k + 1] == doctest::Approx(4.0 / std::tan(std::acos(-1.0) * k / 8)).epsilon(1e-4));
  }
}

TEST_CASE("Lrn: ONNX's formula with its asymmetric window for an even size") {
  for (const std::uint32_t size : {1u, 2u, 3u, 4u}) {
    INFO("size " << size);
    LrnDescriptor d;
    d.size = size;
    d.alpha = 0.5f;
    d.beta = 0.75f;
    d.bias = 2.0f;
    const std::int64_t n = 2, c = 5, s = 3;
    const auto x = Pattern(n * c * s, 1.0);
    const auto y = RunOp(d, {HostTensor::From(TensorShape{n, c, s}, x, DataType::kFloat64)},
                         {TensorInfo{TensorShape{n, c, s}, DataType::kFloat64}})[0].As<double>();
    for (std::int64_t b = 0; b < n; ++b) {
      for (std::int64_t ch = 0; ch < c; ++ch) {
        for (std::int64_t i = 0; i < s; ++i) {
          double sum = 0;
          const std::int64_t lo = ch - static_cast<std::int64_t>(std::floor((size - 1) / 2.0));
          const std::int64_t hi = ch + static_cast<std::int64_t>(std::ceil((size - 1) / 2.0));
          for (std::int64_t k = std::max<std::int64_t>(lo, 0); k <= std::min<std::int64_t>(hi, c - 1); ++k) {
            sum += x[static_cast<std::size_t>((b * c + k) * s + i)] * x[static_cast<std::size_t>((b * c + k) * s + i)];
          }
          const std::size_t at = static_cast<std::size_t>((b * c + ch) * s + i);
          CHECK(y[at] == doctest::Approx(x[at] / std::pow(2.0 + 0.5 / size * sum, 0.75)).epsilon(1e-12));
        }
      }
    }
  }
}

TEST_CASE("Det: 2x2, 3x3 with a row swap, singular and batched") {
  const DetDescriptor d;
  // [[0, 1], [2, 3]] -> -2; [[0, 2, 1], [1, 0, 3], [4, 1, 0]] -> 0*(0-3) - 2*(0-12) + 1*(1-0) = 25;
  // [[1, 2], [2, 4]] -> 0.
  auto y = RunOp(d, {HostTensor::F32({2, 2}, {0, 1, 2, 3})}, {TensorInfo{TensorShape{}, DataType::kFloat32}});
  CHECK(y[0].As<float>()[0] == doctest::Approx(-2.0));
  y = RunOp(d, {HostTensor::From(TensorShape{1, 3, 3}, std::vector<double>{0, 2, 1, 1, 0, 3, 4, 1, 0}, DataType::kFloat64)},
            {TensorInfo{TensorShape{1}, DataType::kFloat64}});
  CHECK(y[0].As<double>()[0] == doctest::Approx(25.0).epsilon(1e-14));
  y = RunOp(d, {HostTensor::F32({3, 2, 2}, {1, 2, 2, 4, 3, 0, 0, 3, 0, 1, 1, 0})},
            {TensorInfo{TensorShape{3}, DataType::kFloat32}});
  CHECK(y[0].As<float>() == std::vector<float>{0.0f, 9.0f, -1.0f});
}

TEST_CASE("Det and Dft on f16: computed in double, rounded once") {
  using backplane::Half;
  std::vector<Half> matrix;
  for (const float v : {1.5f, 2.0f, 3.0f, 4.0f}) matrix.push_back(Half{backplane::FloatToHalf(v)});
  auto y = RunOp(DetDescriptor{}, {HostTensor::From(TensorShape{2, 2}, matrix, DataType::kFloat16)},
                 {TensorInfo{TensorShape{}, DataType::kFloat16}});
  CHECK(backplane::HalfToFloat(y[0].As<Half>()[0].bits) == 0.0f);  // 1.5 * 4 - 2 * 3
  matrix[0] = Half{backplane::FloatToHalf(1.0f)};
  y = RunOp(DetDescriptor{}, {HostTensor::From(TensorShape{2, 2}, matrix, DataType::kFloat16)},
            {TensorInfo{TensorShape{}, DataType::kFloat16}});
  CHECK(backplane::HalfToFloat(y[0].As<Half>()[0].bits) == -2.0f);
  const DftDescriptor d;  // [1, 4, 1]: 1, 2, 3, 4 -> 10, -2 + 2j, -2, -2 - 2j
  std::vector<Half> ramp;
  for (const float v : {1.0f, 2.0f, 3.0f, 4.0f}) ramp.push_back(Half{backplane::FloatToHalf(v)});
  const auto spectrum = RunOp(d, {HostTensor::From(TensorShape{1, 4, 1}, ramp, DataType::kFloat16)},
                              {TensorInfo{TensorShape{1, 4, 2}, DataType::kFloat16}})[0].As<Half>();
  std::vector<float> values;
  for (const Half h : spectrum) values.push_back(backplane::HalfToFloat(h.bits));
  CHECK(values == std::vector<float>{10, 0, -2, 2, -2, 0, -2, -2});
}
