// Pooling2d against windows worked out by hand and against a direct loop written here:
// max and average (with and without counting the padding), strides, dilations, asymmetric
// pads, ceil_mode (with ONNX's rule that drops a last window starting in the trailing
// padding), global pooling, and the reasons unsupported layers get.
#include "op_test_harness.hpp"
#include "op_test_values.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using backplane::DataType;
using backplane::Pooling2dDescriptor;
using backplane::PoolingType;
using backplane::TensorInfo;
using backplane::TensorShape;
using backplane::reference::testing::CheckClose;
using backplane::reference::testing::HostTensor;
using backplane::reference::testing::Random;
using backplane::reference::testing::IsSupported;
using backplane::reference::testing::RunOp;

Pooling2dDescriptor Pool(PoolingType type, std::array<std::uint32_t, 2> kernel, std::array<std::uint32_t, 2> strides,
                         std::array<std::uint32_t, 4> pads = {0, 0, 0, 0}, bool ceil_mode = false,
                         bool count_include_pad = false, std::array<std::uint32_t, 2> dilations = {1, 1}) {
  Pooling2dDescriptor d;
  d.type = type;
  d.kernel = kernel;
  d.strides = strides;
  d.pads = pads;
  d.ceil_mode = ceil_mode;
  d.count_include_pad = count_include_pad;
  d.dilations = dilations;
  return d;
}

std::vector<float> Run(const Pooling2dDescriptor& d, const TensorShape& x_shape, const std::vector<float>& x,
                       const TensorShape& y_shape) {
  return RunOp(d, {HostTensor::F32(x_shape, x)}, {{y_shape, DataType::kFloat32}})[0].As<float>();
}

// ONNX's output size: floor or ceil of (size + pads - dilated kernel) / stride, plus 1; with
// ceil, a last window that would start past the input and the leading padding is dropped.
std::int64_t Extent(std::int64_t size, std::int64_t kernel, std::int64_t stride, std::int64_t dilation,
                    std::int64_t pad_begin, std::int64_t pad_end, bool ceil_mode) {
  const double room = static_cast<double>(size + pad_begin + pad_end - dilation * (kernel - 1) - 1);
  std::int64_t out = static_cast<std::int64_t>(ceil_mode ? std::ceil(room / stride) : std::floor(room / stride)) + 1;
  if (ceil_mode && (out - 1) * stride >= size + pad_begin) out -= 1;
  return out;
}

// Direct pooling: for every window, the input values under it (padding holds none); max or
// mean, the mean's divisor being the number of taps inside the padded image when counting
// the padding.
std::vector<double> Direct(const Pooling2dDescriptor& d, const TensorShape& s, const std::vector<float>& x,
                           TensorShape& y_shape) {
  const std::int64_t ho = Extent(s[2], d.kernel[0], d.strides[0], d.dilations[0], d.pads[0], d.pads[2], d.ceil_mode);
  const std::int64_t wo = Extent(s[3], d.kernel[1], d.strides[1], d.dilations[1], d.pads[1], d.pads[3], d.ceil_mode);
  y_shape = TensorShape{s[0], s[1], ho, wo};
  std::vector<double> y;
  for (std::int64_t plane = 0; plane < s[0] * s[1]; ++plane) {
    for (std::int64_t oh = 0; oh < ho; ++oh) {
      for (std::int64_t ow = 0; ow < wo; ++ow) {
        std::vector<double> values;
        std::int64_t taps_in_padded = 0;
        for (std::int64_t kh = 0; kh < d.kernel[0]; ++kh) {
          for (std::int64_t kw = 0; kw < d.kernel[1]; ++kw) {
            const std::int64_t ih = oh * d.strides[0] + kh * d.dilations[0] - d.pads[0];
            const std::int64_t iw = ow * d.strides[1] + kw * d.dilations[1] - d.pads[1];
            const bool padded_h = ih >= -std::int64_t{d.pads[0]} && ih < s[2] + d.pads[2];
            const bool padded_w = iw >= -std::int64_t{d.pads[1]} && iw < s[3] + d.pads[3];
            if (padded_h && padded_w) ++taps_in_padded;
            if (ih >= 0 && ih < s[2] && iw >= 0 && iw < s[3]) values.push_back(x[(plane * s[2] + ih) * s[3] + iw]);
          }
        }
        if (d.type == PoolingType::kMax) {
          y.push_back(*std::max_element(values.begin(), values.end()));
        } else {
          double sum = 0.0;
          for (const double v : values) sum += v;
          y.push_back(sum / static_cast<double>(d.count_include_pad ? taps_in_padded : values.size()));
        }
      }
    }
  }
  return y;
}

void CheckDirect(const Pooling2dDescriptor& d, const TensorShape& x_shape, unsigned seed = 9) {
  CAPTURE(x_shape);
  CAPTURE(d.ceil_mode);
  CAPTURE(d.count_include_pad);
  const auto x = Random(x_shape.NumElements(), seed);
  TensorShape y_shape;
  const auto expected = Direct(d, x_shape, x, y_shape);
  CheckClose(Run(d, x_shape, x, y_shape), expected);
}

std::string Reason(const Pooling2dDescriptor& d, const TensorShape& x, const TensorShape& y,
                   DataType type = DataType::kFloat32) {
  std::string reason;
  HostTensor input{{x, type}, std::vector<std::uint8_t>(TensorInfo{x, type}.NumBytes())};
  CHECK_FALSE(IsSupported(d, {input}, {{y, DataType::kFloat32}}, reason));
  return reason;
}

const std::vector<float> kOneToNine{1, 2, 3, 4, 5, 6, 7, 8, 9};

}  // namespace

TEST_CASE("pool2d: 2x2 max, stride 2, by hand") {
  std::vector<float> x(16);
  for (int i = 0; i < 16; ++i) x[i] = static_cast<float>(i);
  CHECK(Run(Pool(PoolingType::kMax, {2, 2}, {2, 2}), {1, 1, 4, 4}, x, {1, 1, 2, 2}) ==
        std::vector<float>{5, 7, 13, 15});
}

TEST_CASE("pool2d: 3x3 average with padding 1, without and with count_include_pad, by hand") {
  const auto exclude = Run(Pool(PoolingType::kAverage, {3, 3}, {1, 1}, {1, 1, 1, 1}), {1, 1, 3, 3}, kOneToNine,
                           {1, 1, 3, 3});
  CheckClose(exclude, {3, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7});
  const auto include = Run(Pool(PoolingType::kAverage, {3, 3}, {1, 1}, {1, 1, 1, 1}, false, true), {1, 1, 3, 3},
                           kOneToNine, {1, 1, 3, 3});
  CheckClose(include, {12.0 / 9, 21.0 / 9, 16.0 / 9, 27.0 / 9, 5, 33.0 / 9, 24.0 / 9, 39.0 / 9, 28.0 / 9});
}

TEST_CASE("pool2d: ceil_mode keeps a last partial window, by hand") {
  const std::vector<float> x{1, 2, 3, 4, 5};
  CHECK(Run(Pool(PoolingType::kMax, {1, 2}, {1, 2}), {1, 1, 1, 5}, x, {1, 1, 1, 2}) == std::vector<float>{2, 4});
  CHECK(Run(Pool(PoolingType::kMax, {1, 2}, {1, 2}, {0, 0, 0, 0}, true), {1, 1, 1, 5}, x, {1, 1, 1, 3}) ==
        std::vector<float>{2, 4, 5});
  // The last window sticks out past the input, where there is no padding: it averages 1 value
  // whether or not padding is counted.
  CHECK(Run(Pool(PoolingType::kAverage, {1, 2}, {1, 2}, {0, 0, 0, 0}, true), {1, 1, 1, 5}, x, {1, 1, 1, 3}) ==
        std::vector<float>{1.5f, 3.5f, 5});
  CHECK(Run(Pool(PoolingType::kAverage, {1, 2}, {1, 2}, {0, 0, 0, 0}, true, true), {1, 1, 1, 5}, x, {1, 1, 1, 3}) ==
        std::vector<float>{1.5f, 3.5f, 5});
}

TEST_CASE("pool2d: ceil_mode drops a window that would start in the trailing padding, by hand") {
  // Width 5, pads 1 and 1, kernel 2, stride 2: ceil((5 + 2 - 2) / 2) + 1 = 4 windows, but the
  // 4th would start at 5, past the input: 3 windows, starting at -1, 1 and 3.
  const std::vector<float> x{1, 2, 3, 4, 5};
  const auto pool = Pool(PoolingType::kMax, {1, 2}, {1, 2}, {0, 1, 0, 1}, true);
  CHECK(Run(pool, {1, 1, 1, 5}, x, {1, 1, 1, 3}) == std::vector<float>{1, 3, 5});
  std::string reason;
  CHECK_FALSE(IsSupported(pool, {HostTensor::F32({1, 1, 1, 5}, x)}, {{{1, 1, 1, 4}, DataType::kFloat32}}, reason));
  CHECK(reason.find("the op gives f32 [1,1,1,3]") != std::string::npos);
  const auto average = Pool(PoolingType::kAverage, {1, 2}, {1, 2}, {0, 1, 0, 1}, true, true);
  CHECK(Run(average, {1, 1, 1, 5}, x, {1, 1, 1, 3}) == std::vector<float>{0.5f, 2.5f, 4.5f});
}

TEST_CASE("pool2d: global max and average, by hand") {
  const std::vector<float> x{1, -2, 3, 4, 5, 6, -1, -1, -1, -1, -1, -7};
  Pooling2dDescriptor global;
  global.global = true;
  global.type = PoolingType::kMax;
  CHECK(Run(global, {1, 2, 2, 3}, x, {1, 2, 1, 1}) == std::vector<float>{6, -1});
  global.type = PoolingType::kAverage;
  CHECK(Run(global, {1, 2, 2, 3}, x, {1, 2, 1, 1}) == std::vector<float>{17.0f / 6, -2});
  // The kernel, strides and pads of a global pooling are ignored.
  global.kernel = {5, 5};
  global.pads = {3, 3, 3, 3};
  CHECK(Run(global, {1, 2, 2, 3}, x, {1, 2, 1, 1}) == std::vector<float>{17.0f / 6, -2});
}

TEST_CASE("pool2d: odd shapes, strides, dilations and asymmetric pads against the direct loop") {
  const TensorShape shape{2, 3, 7, 5};
  for (const auto type : {PoolingType::kMax, PoolingType::kAverage}) {
    for (const bool ceil_mode : {false, true}) {
      for (const bool include : {false, true}) {
        CheckDirect(Pool(type, {3, 3}, {2, 2}, {1, 1, 1, 1}, ceil_mode, include), shape);
        CheckDirect(Pool(type, {2, 3}, {2, 1}, {0, 1, 1, 2}, ceil_mode, include), shape);
        CheckDirect(Pool(type, {3, 2}, {3, 2}, {1, 0, 2, 1}, ceil_mode, include, {2, 2}), shape);
        CheckDirect(Pool(type, {1, 1}, {1, 1}, {0, 0, 0, 0}, ceil_mode, include), {1, 2, 1, 1});
        CheckDirect(Pool(type, {2, 2}, {3, 3}, {0, 0, 0, 0}, ceil_mode, include), {1, 1, 10, 10});
      }
    }
  }
}

TEST_CASE("pool2d: unsupported layers say why") {
  const auto max = Pool(PoolingType::kMax, {2, 2}, {2, 2});
  CHECK(Reason(max, {1, 1, 4, 4}, {1, 1, 3, 3}).find("the op gives f32 [1,1,2,2]") != std::string::npos);
  CHECK(Reason(max, {1, 4, 4}, {1, 2, 2}).find("[N, C, H, W]") != std::string::npos);
  std::string reason;
  const HostTensor i64{{{1, 1, 4, 4}, DataType::kInt64}, std::vector<std::uint8_t>(16 * 8)};
  CHECK_FALSE(IsSupported(Pool(PoolingType::kAverage, {2, 2}, {2, 2}), {i64}, {{{1, 1, 2, 2}, DataType::kInt64}}, reason));
  CHECK(reason == "CpuRef runs max pooling on every type but bool and the others on f32, f64, f16 and bf16, not i64");
  CHECK(Reason(Pool(PoolingType::kMax, {0, 2}, {1, 1}), {1, 1, 4, 4}, {1, 1, 4, 3}).find("at least 1") !=
        std::string::npos);
  CHECK(Reason(Pool(PoolingType::kMax, {2, 2}, {0, 1}), {1, 1, 4, 4}, {1, 1, 4, 3}).find("at least 1") !=
        std::string::npos);
  CHECK(Reason(Pool(PoolingType::kMax, {5, 5}, {1, 1}), {1, 1, 4, 4}, {1, 1, 1, 1}).find("does not fit") !=
        std::string::npos);
  CHECK(Reason(Pool(static_cast<PoolingType>(7), {2, 2}, {2, 2}), {1, 1, 4, 4}, {1, 1, 2, 2})
            .find("pooling type 7") != std::string::npos);
}

TEST_CASE("pool2d: max on u8, i8 and f16, average on f64, by hand") {
  const auto max = Pool(PoolingType::kMax, {2, 2}, {2, 2});
  std::vector<std::uint8_t> u8(16);
  for (int i = 0; i < 16; ++i) u8[i] = static_cast<std::uint8_t>(16 * i);  // 0 .. 240
  CHECK(RunOp(max, {HostTensor::From(TensorShape{1, 1, 4, 4}, u8, DataType::kUInt8)}, {{{1, 1, 2, 2}, DataType::kUInt8}})[0]
            .As<std::uint8_t>() == std::vector<std::uint8_t>{80, 112, 208, 240});
  // i8 with padding: padding never wins, even against -128.
  const auto padded = Pool(PoolingType::kMax, {2, 2}, {2, 2}, {1, 1, 1, 1});
  CHECK(RunOp(padded, {HostTensor::From<std::int8_t>({1, 1, 2, 2}, {-5, -3, -7, -128}, DataType::kInt8)},
              {{{1, 1, 2, 2}, DataType::kInt8}})[0]
            .As<std::int8_t>() == std::vector<std::int8_t>{-5, -3, -7, -128});
  // f16 1, 3, 2, 0.5 (0x3c00, 0x4200, 0x4000, 0x3800): 3.
  CHECK(RunOp(max, {HostTensor::From<std::uint16_t>({1, 1, 2, 2}, {0x3c00, 0x4200, 0x4000, 0x3800}, DataType::kFloat16)},
              {{{1, 1, 1, 1}, DataType::kFloat16}})[0]
            .As<std::uint16_t>() == std::vector<std::uint16_t>{0x4200});
  const std::vector<double> one_to_nine{1, 2, 3, 4, 5, 6, 7, 8, 9};
  CHECK(RunOp(Pool(PoolingType::kAverage, {3, 3}, {1, 1}, {1, 1, 1, 1}),
              {HostTensor::From(TensorShape{1, 1, 3, 3}, one_to_nine, DataType::kFloat64)},
              {{{1, 1, 3, 3}, DataType::kFloat64}})[0]
            .As<double>() == std::vector<double>{3, 3.5, 4, 4.5, 5, 5.5, 6, 6.5, 7});
}
