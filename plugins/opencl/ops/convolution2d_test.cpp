// GpuOpenCl Convolution2d against CpuRef's: output planes and channels that are not multiples of
// the GEMM tiles, batches, strides, asymmetric pads, dilations, groups, depthwise with and
// without a channel multiplier, run-time weights; the reasons unsupported layers get; and one
// workload executed from several threads at once.
#include "opencl_op_test_harness.hpp"

#include <backplane/descriptors.hpp>

#include <doctest/doctest.h>

namespace {

using backplane::Convolution2dDescriptor;
using backplane::DataType;
using backplane::MatMulDescriptor;
using backplane::TensorInfo;
using backplane::opencl::testing::CheckMatchesReference;
using backplane::opencl::testing::F32;
using backplane::opencl::testing::HostTensor;
using backplane::opencl::testing::RefusalReason;
struct Conv {
  std::int64_t n, c, h, w, m, kh, kw;
  std::uint32_t groups = 1;
  std::array<std::uint32_t, 2> strides{1, 1}, dilations{1, 1};
  std::array<std::uint32_t, 4> pads{0, 0, 0, 0};
  bool bias = true, constant = true;
};

void CheckConv(const Conv& t) {
  Convolution2dDescriptor d;
  d.groups = t.groups;
  d.strides = t.strides;
  d.dilations = t.dilations;
  d.pads = t.pads;
  const std::int64_t ho = (t.h + t.pads[0] + t.pads[2] - std::int64_t{t.dilations[0]} * (t.kh - 1) - 1) / t.strides[0] + 1;
  const std::int64_t wo = (t.w + t.pads[1] + t.pads[3] - std::int64_t{t.dilations[1]} * (t.kw - 1) - 1) / t.strides[1] + 1;
  std::vector<HostTensor> inputs{F32({t.n, t.c, t.h, t.w}, 1), F32({t.m, t.c / t.groups, t.kh, t.kw}, 2, t.constant)};
  if (t.bias) inputs.push_back(F32({t.m}, 3, t.constant));
  CheckMatchesReference(d, inputs, {{{t.n, t.m, ho, wo}, DataType::kFloat32}});
}

}  // namespace

TEST_CASE("opencl conv2d: 3x3 same padding, channels and planes off the 64x64 tiles") {
  CheckConv({1, 3, 17, 19, 70, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1}});
}

TEST_CASE("opencl conv2d: batch 2, stride 2, asymmetric pads, no bias") {
  Conv t{2, 5, 13, 11, 9, 3, 2, 1, {2, 2}, {1, 1}, {0, 1, 2, 0}};
  t.bias = false;
  CheckConv(t);
}

TEST_CASE("opencl conv2d: dilated 3x3") { CheckConv({1, 4, 15, 15, 8, 3, 3, 1, {1, 1}, {2, 3}, {2, 3, 2, 3}}); }

TEST_CASE("opencl conv2d: 1x1 pointwise, K and N over one tile") { CheckConv({1, 80, 9, 9, 65, 1, 1}); }

TEST_CASE("opencl conv2d: grouped") { CheckConv({2, 8, 10, 9, 12, 3, 3, 4, {1, 2}, {1, 1}, {1, 1, 1, 1}}); }

TEST_CASE("opencl conv2d: depthwise, with and without a channel multiplier") {
  CheckConv({1, 6, 12, 12, 6, 3, 3, 6, {1, 1}, {1, 1}, {1, 1, 1, 1}});
  CheckConv({2, 4, 9, 7, 8, 5, 3, 4, {2, 1}, {1, 2}, {2, 1, 2, 1}});
  // Strided and dilated along W with uneven pads: the taps' first and last valid outputs.
  CheckConv({1, 5, 11, 13, 5, 3, 3, 5, {2, 2}, {2, 2}, {1, 3, 0, 2}});
  CheckConv({1, 3, 6, 5, 3, 3, 5, 3, {1, 3}, {1, 1}, {1, 4, 1, 0}, false});
}

TEST_CASE("opencl conv2d: weights and bias given at run time") {
  Conv t{1, 3, 8, 8, 5, 3, 3, 1, {1, 1}, {1, 1}, {1, 1, 1, 1}};
  t.constant = false;
  CheckConv(t);
}

TEST_CASE("opencl conv2d: unsupported layers say why") {
  Convolution2dDescriptor d;
  d.groups = 2;
  const auto reason = RefusalReason(d, {F32({1, 3, 5, 5}, 1), F32({4, 1, 3, 3}, 2, true)},
                                    {{{1, 4, 3, 3}, DataType::kFloat32}});
  CHECK(reason.find("not divisible by groups 2") != std::string::npos);
  const auto i64 = RefusalReason(Convolution2dDescriptor{},
                                 {HostTensor::I64({1, 1, 2, 2}, {1, 2, 3, 4}), F32({1, 1, 1, 1}, 2, true)},
                                 {{{1, 1, 2, 2}, DataType::kFloat32}});
  CHECK(i64.find("i64") != std::string::npos);
  // Tensors that fit, im2col columns (1 * 16 * 16 rows x 2901 * 2901 pixels) that do not.
  Convolution2dDescriptor padded;
  padded.pads = {1450, 1450, 1450, 1450};
  const auto columns = RefusalReason(padded, {F32({1, 1, 16, 16}, 1), F32({1, 1, 16, 16}, 2, true)},
                                     {{{1, 1, 2901, 2901}, DataType::kFloat32}});
  CHECK(columns.find("im2col columns [256, 8415801]") != std::string::npos);
}


TEST_CASE("opencl conv2d and matmul: one workload executed from several threads at once") {
  using backplane::opencl::testing::OpsDevice;
  using backplane::opencl::testing::RunConcurrently;
  const auto device = OpsDevice();
  if (!device) return;
  Convolution2dDescriptor conv;
  conv.pads = {1, 1, 1, 1};
  const std::vector<HostTensor> conv_inputs{F32({1, 8, 20, 20}, 1), F32({24, 8, 3, 3}, 2, true), F32({24}, 3, true)};
  const std::vector<TensorInfo> conv_outputs{{{1, 24, 20, 20}, DataType::kFloat32}};
  const auto expected = backplane::reference::testing::RunOp(conv, conv_inputs, conv_outputs)[0].bytes;
  for (const auto& result : RunConcurrently(device, conv, conv_inputs, conv_outputs, 4, 5)) {
    const auto e = backplane::reference::testing::HostTensor{conv_outputs[0], expected}.As<float>();
    backplane::reference::testing::CheckClose(result[0].As<float>(), std::vector<double>(e.begin(), e.end()), 1e-4);
  }
  const MatMulDescriptor matmul;
  const std::vector<HostTensor> mm_inputs{F32({3, 40, 24}, 4), F32({24, 33}, 5)};
  const std::vector<TensorInfo> mm_outputs{{{3, 40, 33}, DataType::kFloat32}};
  const auto mm_expected = backplane::reference::testing::RunOp(matmul, mm_inputs, mm_outputs)[0].As<float>();
  for (const auto& result : RunConcurrently(device, matmul, mm_inputs, mm_outputs, 4, 5)) {
    backplane::reference::testing::CheckClose(result[0].As<float>(),
                                              std::vector<double>(mm_expected.begin(), mm_expected.end()), 1e-4);
  }
}
