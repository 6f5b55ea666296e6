// BatchNormalization and LayerNormalization against the textbook formulas evaluated here in
// double, and small cases worked out by hand.
#include "op_test_harness.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

namespace {

using backplane::BatchNormalizationDescriptor;
using backplane::DataType;
using backplane::LayerNormalizationDescriptor;
using backplane::TensorShape;
using backplane::reference::testing::HostTensor;
using backplane::reference::testing::IsSupported;
using backplane::reference::testing::RunOp;

std::vector<float> Ramp(std::int64_t count, float start, float step) {
  std::vector<float> values(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = start + step * static_cast<float>(i);
  return values;
}

void CheckClose(const std::vector<float>& actual, const std::vector<double>& expected, double epsilon = 1e-5) {
  REQUIRE(actual.size() == expected.size());
  for (std::size_t i = 0; i < actual.size(); ++i) {
    CAPTURE(i);
    CHECK(actual[i] == doctest::Approx(expected[i]).epsilon(epsilon));
  }
}

// (x - mean[c]) / sqrt(var[c] + epsilon) * scale[c] + bias[c] for x of shape [N, C, S...].
std::vector<double> NaiveBatchNorm(const TensorShape& shape, const std::vector<float>& x, const std::vector<float>& scale,
                                   const std::vector<float>& bias, const std::vector<float>& mean,
                                   const std::vector<float>& var, float epsilon) {
  const std::int64_t channels = shape[1];
  const std::int64_t spatial = shape.NumElements() / (shape[0] * channels);
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    const auto c = static_cast<std::size_t>((static_cast<std::int64_t>(i) / spatial) % channels);
    y[i] = (x[i] - static_cast<double>(mean[c])) / std::sqrt(static_cast<double>(var[c]) + epsilon) * scale[c] + bias[c];
  }
  return y;
}

std::vector<float> RunBatchNorm(const TensorShape& shape, const std::vector<float>& x, const std::vector<float>& scale,
                                const std::vector<float>& bias, const std::vector<float>& mean,
                                const std::vector<float>& var, float epsilon, bool constant) {
  BatchNormalizationDescriptor descriptor;
  descriptor.epsilon = epsilon;
  const TensorShape channels{shape[1]};
  return RunOp(descriptor,
               {HostTensor::F32(shape, x), HostTensor::F32(channels, scale, constant),
                HostTensor::F32(channels, bias, constant), HostTensor::F32(channels, mean, constant),
                HostTensor::F32(channels, var, constant)},
               {{shape, DataType::kFloat32}})[0]
      .As<float>();
}

// Normalizes each row of `size` elements; scale and bias repeat per row.
std::vector<double> NaiveLayerNorm(const std::vector<float>& x, std::size_t size, const std::vector<float>& scale,
                                   const std::vector<float>* bias, float epsilon) {
  std::vector<double> y(x.size());
  for (std::size_t row = 0; row < x.size() / size; ++row) {
    double mean = 0, var = 0;
    for (std::size_t i = 0; i < size; ++i) mean += x[row * size + i];
    mean /= static_cast<double>(size);
    for (std::size_t i = 0; i < size; ++i) var += std::pow(x[row * size + i] - mean, 2);
    var /= static_cast<double>(size);
    for (std::size_t i = 0; i < size; ++i) {
      y[row * size + i] = (x[row * size + i] - mean) / std::sqrt(var + epsilon) * scale[i] + (bias ? (*bias)[i] : 0.0f);
    }
  }
  return y;
}

LayerNormalizationDescriptor LayerNorm(std::int32_t axis, float epsilon = 1e-5f) {
  LayerNormalizationDescriptor descriptor;
  descriptor.axis = axis;
  descriptor.epsilon = epsilon;
  return descriptor;
}

}  // namespace

TEST_CASE("batch_normalization: one channel by hand") {
  // mean 1, var 4 (+ epsilon 0): (x - 1) / 2 * 3 + 0.5
  CheckClose(RunBatchNorm({1, 1, 2, 2}, {1, 3, -1, 5}, {3}, {0.5f}, {1}, {4}, 0.0f, true), {0.5, 3.5, -2.5, 6.5});
}

TEST_CASE("batch_normalization: [2,3,2,5] with constant and with run-time parameters") {
  const TensorShape shape{2, 3, 2, 5};
  const auto x = Ramp(shape.NumElements(), -7.0f, 0.23f);
  const std::vector<float> scale{0.5f, -1.25f, 2.0f}, bias{0.1f, 0.0f, -3.0f}, mean{-1.0f, 0.5f, 2.0f},
      var{0.25f, 1.0f, 9.0f};
  const auto expected = NaiveBatchNorm(shape, x, scale, bias, mean, var, 1e-3f);
  CheckClose(RunBatchNorm(shape, x, scale, bias, mean, var, 1e-3f, true), expected);
  CheckClose(RunBatchNorm(shape, x, scale, bias, mean, var, 1e-3f, false), expected);
}

TEST_CASE("batch_normalization: rank 2 [N, C] and rank 3 inputs") {
  const std::vector<float> scale{1.0f, 2.0f, 3.0f, 4.0f}, bias{0, 1, 2, 3}, mean{0.5f, 0, -0.5f, 1}, var{1, 2, 3, 4};
  const auto x2 = Ramp(12, -1.0f, 0.5f);
  CheckClose(RunBatchNorm({3, 4}, x2, scale, bias, mean, var, 1e-5f, true),
             NaiveBatchNorm({3, 4}, x2, scale, bias, mean, var, 1e-5f));
  const auto x3 = Ramp(2 * 4 * 7, 3.0f, -0.1f);
  CheckClose(RunBatchNorm({2, 4, 7}, x3, scale, bias, mean, var, 1e-5f, false),
             NaiveBatchNorm({2, 4, 7}, x3, scale, bias, mean, var, 1e-5f));
}

TEST_CASE("batch_normalization: support rejects a missing channel axis and parameters of the wrong size") {
  std::string reason;
  const BatchNormalizationDescriptor descriptor;
  const auto param = [](std::int64_t n) { return HostTensor::F32({n}, std::vector<float>(static_cast<std::size_t>(n), 1)); };
  CHECK_FALSE(IsSupported(descriptor, {HostTensor::F32({3}, {1, 2, 3}), param(3), param(3), param(3), param(3)},
                          {{{3}, DataType::kFloat32}}, reason));
  CHECK(reason == "x [3] has no channel axis (needs [N, C, ...])");
  CHECK_FALSE(IsSupported(descriptor, {HostTensor::F32({1, 3}, {1, 2, 3}), param(3), param(3), param(4), param(3)},
                          {{{1, 3}, DataType::kFloat32}}, reason));
  CHECK(reason == "mean (input 3) has shape [4], expected [3] for the channels of [1,3]");
  CHECK_FALSE(IsSupported(descriptor, {HostTensor::F32({1, 3}, {1, 2, 3}), param(3), param(3), param(3)},
                          {{{1, 3}, DataType::kFloat32}}, reason));
  CHECK(reason == "takes 5 inputs, has 4");
  CHECK(IsSupported(descriptor, {HostTensor::F32({1, 3}, {1, 2, 3}), param(3), param(3), param(3), param(3)},
                    {{{1, 3}, DataType::kFloat32}}, reason));
}

TEST_CASE("layer_normalization: one row by hand") {
  // mean 2, population variance 2/3.
  const double s = std::sqrt(2.0 / 3.0 + 1e-5);
  const auto y = RunOp(LayerNorm(-1), {HostTensor::F32({1, 3}, {1, 2, 3}), HostTensor::F32({3}, {1, 1, 1})},
                       {{{1, 3}, DataType::kFloat32}})[0]
                     .As<float>();
  CheckClose(y, {-1.0 / s, 0.0, 1.0 / s});
}

TEST_CASE("layer_normalization: last axis of [2,3,4] with scale and bias") {
  const auto x = Ramp(24, -2.0f, 0.37f);
  std::vector<float> scale{0.5f, 1.0f, -2.0f, 3.0f}, bias{0.0f, 0.25f, -1.0f, 2.0f};
  const auto y = RunOp(LayerNorm(-1), {HostTensor::F32({2, 3, 4}, x), HostTensor::F32({4}, scale, true),
                                       HostTensor::F32({4}, bias, true)},
                       {{{2, 3, 4}, DataType::kFloat32}})[0]
                     .As<float>();
  CheckClose(y, NaiveLayerNorm(x, 4, scale, &bias, 1e-5f));
}

TEST_CASE("layer_normalization: axis 1 of [2,3,4] normalizes 12 elements, bias is optional") {
  std::vector<float> x(24);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::cos(static_cast<float>(i)) * 5.0f;
  const auto scale = Ramp(12, 0.5f, 0.1f);
  const auto y = RunOp(LayerNorm(1, 1e-3f), {HostTensor::F32({2, 3, 4}, x), HostTensor::F32({3, 4}, scale)},
                       {{{2, 3, 4}, DataType::kFloat32}})[0]
                     .As<float>();
  CheckClose(y, NaiveLayerNorm(x, 12, scale, nullptr, 1e-3f));
  const auto negative = RunOp(LayerNorm(-2, 1e-3f), {HostTensor::F32({2, 3, 4}, x), HostTensor::F32({3, 4}, scale)},
                              {{{2, 3, 4}, DataType::kFloat32}})[0]
                            .As<float>();
  CHECK(negative == y);
}

TEST_CASE("layer_normalization: scale with leading 1s ([1,4] for a last axis of 4) is accepted") {
  const auto x = Ramp(8, 1.0f, 1.5f);
  const std::vector<float> scale{1, 2, 3, 4};
  const auto y = RunOp(LayerNorm(-1), {HostTensor::F32({2, 4}, x), HostTensor::F32({1, 4}, scale)},
                       {{{2, 4}, DataType::kFloat32}})[0]
                     .As<float>();
  CheckClose(y, NaiveLayerNorm(x, 4, scale, nullptr, 1e-5f));
}

TEST_CASE("layer_normalization: support rejects a bad axis and scale or bias of the wrong shape") {
  std::string reason;
  const auto x = HostTensor::F32({2, 3, 4}, Ramp(24, 0, 1));
  CHECK_FALSE(IsSupported(LayerNorm(3), {x, HostTensor::F32({4}, Ramp(4, 0, 1))}, {{{2, 3, 4}, DataType::kFloat32}},
                          reason));
  CHECK(reason == "axis 3 is out of range [-3, 2] for input [2,3,4] of rank 3");
  CHECK_FALSE(IsSupported(LayerNorm(-1), {x, HostTensor::F32({3}, Ramp(3, 0, 1))}, {{{2, 3, 4}, DataType::kFloat32}},
                          reason));
  CHECK(reason == "scale (input 1) has shape [3], expected the normalized shape [4] of [2,3,4] from axis -1");
  CHECK_FALSE(IsSupported(LayerNorm(1), {x, HostTensor::F32({3, 4}, Ramp(12, 0, 1)), HostTensor::F32({4}, Ramp(4, 0, 1))},
                          {{{2, 3, 4}, DataType::kFloat32}}, reason));
  CHECK(reason == "bias (input 2) has shape [4], expected the normalized shape [3,4] of [2,3,4] from axis 1");
  CHECK_FALSE(IsSupported(LayerNorm(-1), {x}, {{{2, 3, 4}, DataType::kFloat32}}, reason));
  CHECK(reason == "takes 2 to 3 inputs, has 1");
}
