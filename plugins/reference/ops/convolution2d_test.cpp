// Convolution2d against a direct seven-loop convolution written here (in double), and against
// small convolutions worked out by hand. Covers padding (asymmetric), strides, dilations,
// groups, depthwise with and without a channel multiplier, odd shapes, batches, weights and
// bias given at run time instead of as constants, and the reasons unsupported layers get.
#include "op_test_harness.hpp"
#include "op_test_values.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

namespace {

using backplane::Convolution2dDescriptor;
using backplane::DataType;
using backplane::TensorInfo;
using backplane::TensorShape;
using backplane::reference::testing::CheckClose;
using backplane::reference::testing::HostTensor;
using backplane::reference::testing::Random;
using backplane::reference::testing::IsSupported;
using backplane::reference::testing::RunOp;

struct ConvCase {
  std::int64_t batch, channels, height, width, out_channels, kernel_h, kernel_w;
  std::uint32_t groups = 1;
  std::array<std::uint32_t, 2> strides{1, 1};
  std::array<std::uint32_t, 2> dilations{1, 1};
  std::array<std::uint32_t, 4> pads{0, 0, 0, 0};  // top, left, bottom, right
  bool bias = true;
  bool constant_weights = true;
  bool constant_bias = true;

  Convolution2dDescriptor Descriptor() const {
    Convolution2dDescriptor d;
    d.groups = groups;
    d.strides = strides;
    d.dilations = dilations;
    d.pads = pads;
    return d;
  }
  std::int64_t OutHeight() const {
    return (height + pads[0] + pads[2] - std::int64_t{dilations[0]} * (kernel_h - 1) - 1) / strides[0] + 1;
  }
  std::int64_t OutWidth() const {
    return (width + pads[1] + pads[3] - std::int64_t{dilations[1]} * (kernel_w - 1) - 1) / strides[1] + 1;
  }
};

// y[n][m][oh][ow] = b[m] + sum over ci < C/groups, kh, kw of
//   x[n][g * C/groups + ci][oh * sh - pad_top + kh * dh][ow * sw - pad_left + kw * dw] * w[m][ci][kh][kw]
// with g = m / (M/groups) and x zero outside the image.
std::vector<double> Direct(const ConvCase& t, const std::vector<float>& x, const std::vector<float>& w,
                           const std::vector<float>& b) {
  const std::int64_t cg = t.channels / t.groups, mg = t.out_channels / t.groups;
  const std::int64_t ho = t.OutHeight(), wo = t.OutWidth();
  std::vector<double> y;
  for (std::int64_t n = 0; n < t.batch; ++n) {
    for (std::int64_t m = 0; m < t.out_channels; ++m) {
      for (std::int64_t oh = 0; oh < ho; ++oh) {
        for (std::int64_t ow = 0; ow < wo; ++ow) {
          double sum = t.bias ? b[m] : 0.0;
          for (std::int64_t ci = 0; ci < cg; ++ci) {
            const std::int64_t c = (m / mg) * cg + ci;
            for (std::int64_t kh = 0; kh < t.kernel_h; ++kh) {
              for (std::int64_t kw = 0; kw < t.kernel_w; ++kw) {
                const std::int64_t ih = oh * t.strides[0] - t.pads[0] + kh * t.dilations[0];
                const std::int64_t iw = ow * t.strides[1] - t.pads[1] + kw * t.dilations[1];
                if (ih < 0 || ih >= t.height || iw < 0 || iw >= t.width) continue;
                sum += double{x[((n * t.channels + c) * t.height + ih) * t.width + iw]} *
                       w[((m * cg + ci) * t.kernel_h + kh) * t.kernel_w + kw];
              }
            }
          }
          y.push_back(sum);
        }
      }
    }
  }
  return y;
}

void CheckCase(const ConvCase& t, unsigned seed = 1) {
  const TensorShape x_shape{t.batch, t.channels, t.height, t.width};
  const TensorShape w_shape{t.out_channels, t.channels / t.groups, t.kernel_h, t.kernel_w};
  const auto x = Random(x_shape.NumElements(), seed);
  const auto w = Random(w_shape.NumElements(), seed + 1);
  const auto b = Random(t.out_channels, seed + 2);
  std::vector<HostTensor> inputs{HostTensor::F32(x_shape, x), HostTensor::F32(w_shape, w, t.constant_weights)};
  if (t.bias) inputs.push_back(HostTensor::F32({t.out_channels}, b, t.constant_bias));
  const TensorShape y_shape{t.batch, t.out_channels, t.OutHeight(), t.OutWidth()};
  const auto y = RunOp(t.Descriptor(), inputs, {{y_shape, DataType::kFloat32}})[0].As<float>();
  CheckClose(y, Direct(t, x, w, b));
}

std::string Reason(const Convolution2dDescriptor& descriptor, const std::vector<HostTensor>& inputs,
                   const TensorShape& output, DataType output_type = DataType::kFloat32) {
  std::string reason;
  CHECK_FALSE(IsSupported(descriptor, inputs, {{output, output_type}}, reason));
  return reason;
}

HostTensor Zeros(const TensorShape& shape, DataType type = DataType::kFloat32) {
  HostTensor tensor{{shape, type}, std::vector<std::uint8_t>(TensorInfo{shape, type}.NumBytes())};
  return tensor;
}

}  // namespace

TEST_CASE("conv2d: a 2x2 box filter over 1..9, by hand") {
  const auto x = HostTensor::F32({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  const auto w = HostTensor::F32({1, 1, 2, 2}, {1, 1, 1, 1}, true);
  const auto y = RunOp(Convolution2dDescriptor{}, {x, w}, {{{1, 1, 2, 2}, DataType::kFloat32}})[0].As<float>();
  CHECK(y == std::vector<float>{12, 16, 24, 28});
}

TEST_CASE("conv2d: padding 1, stride 2 and a bias, by hand") {
  // Windows start at -1 and 1 on both axes; the padding reads as zeros.
  Convolution2dDescriptor descriptor;
  descriptor.pads = {1, 1, 1, 1};
  descriptor.strides = {2, 2};
  const auto x = HostTensor::F32({1, 1, 3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9});
  const auto w = HostTensor::F32({1, 1, 2, 2}, {1, 1, 1, 1}, true);
  const auto b = HostTensor::F32({1}, {0.5f}, true);
  const auto y = RunOp(descriptor, {x, w, b}, {{{1, 1, 2, 2}, DataType::kFloat32}})[0].As<float>();
  CHECK(y == std::vector<float>{1.5f, 5.5f, 11.5f, 28.5f});
}

TEST_CASE("conv2d: depthwise 1x1, by hand") {
  Convolution2dDescriptor descriptor;
  descriptor.groups = 2;
  const auto x = HostTensor::F32({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8});
  const auto w = HostTensor::F32({2, 1, 1, 1}, {2, -1}, true);
  const auto y = RunOp(descriptor, {x, w}, {{{1, 2, 2, 2}, DataType::kFloat32}})[0].As<float>();
  CHECK(y == std::vector<float>{2, 4, 6, 8, -5, -6, -7, -8});
}

TEST_CASE("conv2d: 3x3 with padding 1, the ResNet shape scaled down") {
  ConvCase t{1, 8, 12, 12, 8, 3, 3};
  t.pads = {1, 1, 1, 1};
  CheckCase(t);
}

TEST_CASE("conv2d: asymmetric pads, strides and dilations on a 7x5 input, batch 2") {
  ConvCase t{2, 5, 7, 5, 7, 3, 2};
  t.pads = {1, 0, 2, 1};
  t.strides = {2, 1};
  t.dilations = {1, 2};
  CheckCase(t);
  t.strides = {1, 3};
  t.dilations = {2, 1};
  t.pads = {0, 2, 1, 0};
  CheckCase(t, 5);
}

TEST_CASE("conv2d: output channels and spatial sizes off the GEMM's block sizes") {
  CheckCase({1, 3, 5, 7, 13, 3, 3});          // 13 rows, 15 columns
  CheckCase({3, 2, 9, 11, 1, 2, 4});          // one output channel
  CheckCase({1, 40, 6, 6, 11, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1}});  // depth 360 > 256
}

TEST_CASE("conv2d: 1x1 input and 1x1 kernels") {
  CheckCase({2, 4, 1, 1, 3, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1}});  // a 1x1 image under a padded 3x3
  CheckCase({2, 3, 4, 5, 17, 1, 1});                                  // pointwise: x is the GEMM's B
  CheckCase({1, 3, 5, 5, 4, 1, 1, 1, {2, 2}});                        // 1x1, stride 2
  CheckCase({1, 3, 4, 4, 4, 1, 1, 1, {1, 1}, {1, 1}, {1, 0, 0, 1}});  // 1x1 with padding
}

TEST_CASE("conv2d: grouped convolutions") {
  CheckCase({1, 4, 6, 5, 6, 3, 3, 2, {1, 1}, {1, 1}, {1, 1, 1, 1}});
  CheckCase({2, 6, 7, 7, 9, 3, 2, 3, {2, 1}, {1, 2}, {0, 1, 2, 0}});
}

TEST_CASE("conv2d: depthwise, with and without a channel multiplier") {
  CheckCase({2, 5, 7, 6, 5, 3, 3, 5, {1, 1}, {1, 1}, {1, 1, 1, 1}});
  CheckCase({1, 5, 9, 8, 10, 3, 3, 5, {2, 2}, {2, 1}, {2, 1, 0, 2}});  // multiplier 2
  CheckCase({1, 3, 4, 4, 3, 5, 5, 3, {1, 1}, {1, 1}, {2, 2, 2, 2}, false});
}

TEST_CASE("conv2d: weights and bias given at run time instead of as constants") {
  ConvCase gemm{2, 5, 7, 5, 7, 3, 3, 1, {1, 2}, {1, 1}, {1, 1, 1, 1}};
  gemm.constant_weights = false;
  gemm.constant_bias = false;
  CheckCase(gemm);
  ConvCase pointwise{1, 6, 3, 3, 8, 1, 1, 2};
  pointwise.constant_weights = false;
  CheckCase(pointwise);
  ConvCase depthwise{1, 4, 6, 6, 8, 3, 3, 4, {1, 1}, {1, 1}, {1, 1, 1, 1}};
  depthwise.constant_weights = false;
  depthwise.constant_bias = false;
  CheckCase(depthwise);
}

TEST_CASE("conv2d: the same workload run twice gives the same result") {
  Convolution2dDescriptor descriptor;
  descriptor.pads = {1, 1, 1, 1};
  const auto x = HostTensor::F32({1, 3, 5, 5}, Random(75, 3));
  const auto w = HostTensor::F32({4, 3, 3, 3}, Random(108, 4), true);
  const TensorInfo y{{1, 4, 5, 5}, DataType::kFloat32};
  CHECK(RunOp(descriptor, {x, w}, {y})[0].bytes == RunOp(descriptor, {x, w}, {y})[0].bytes);
}

TEST_CASE("conv2d: unsupported layers say why") {
  const Convolution2dDescriptor plain;
  const auto x = Zeros({1, 4, 5, 5});
  const auto w = Zeros({6, 4, 3, 3});

  CHECK(Reason(plain, {x, w}, {1, 6, 3, 3}, DataType::kInt32).find("f32") != std::string::npos);
  CHECK(Reason(plain, {Zeros({1, 4, 5, 5}, DataType::kInt64), w}, {1, 6, 3, 3}).find("the op gives i64") !=
        std::string::npos);
  CHECK(Reason(plain, {x}, {1, 6, 3, 3}).find("takes 2 to 3 inputs") != std::string::npos);
  CHECK(Reason(plain, {Zeros({4, 5, 5}), w}, {1, 6, 3, 3}).find("[N, C, H, W]") != std::string::npos);
  CHECK(Reason(plain, {x, Zeros({6, 4, 9})}, {1, 6, 3, 3}).find("must have rank 4") != std::string::npos);
  CHECK(Reason(plain, {x, Zeros({6, 3, 3, 3})}, {1, 6, 3, 3}).find("need C/groups = 4") != std::string::npos);
  CHECK(Reason(plain, {x, w}, {1, 6, 5, 5}).find("the op gives f32 [1,6,3,3]") != std::string::npos);
  CHECK(Reason(plain, {x, w, Zeros({5})}, {1, 6, 3, 3}).find("bias [5] must be [6]") != std::string::npos);
  CHECK(Reason(plain, {x, Zeros({6, 4, 7, 7})}, {1, 6, 1, 1}).find("does not fit") != std::string::npos);

  Convolution2dDescriptor grouped;
  grouped.groups = 3;
  CHECK(Reason(grouped, {x, Zeros({6, 1, 3, 3})}, {1, 6, 3, 3}).find("not divisible by groups 3") !=
        std::string::npos);
  grouped.groups = 2;
  CHECK(Reason(grouped, {x, Zeros({5, 2, 3, 3})}, {1, 5, 3, 3}).find("output channels 5") != std::string::npos);
  grouped.groups = 0;
  CHECK(Reason(grouped, {x, w}, {1, 6, 3, 3}).find("groups must be at least 1") != std::string::npos);

  Convolution2dDescriptor strided;
  strided.strides = {0, 1};
  CHECK(Reason(strided, {x, w}, {1, 6, 3, 3}).find("at least 1") != std::string::npos);

  std::string reason;
  CHECK(IsSupported(plain, {x, w}, {{{1, 6, 3, 3}, DataType::kFloat32}}, reason));
}
