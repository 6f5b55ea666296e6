// The GpuOpenCl op table: every op of op set v1 and four of op set v2 (Resize,
// ConvolutionTranspose, ConvolutionNd, PoolingNd) have a row (Input, Output, Constant and
// PreCompiled have none), and the table-level checks (descriptor present, the op schema, then
// GpuOpenCl's f32 tensors) refuse with a plain reason before an op's own check runs. Needs no
// device.
#include "opencl_op_test_harness.hpp"

#include <backplane/descriptors.hpp>

#include <doctest/doctest.h>

using backplane::DataType;
using backplane::backend::LayerType;
using backplane::opencl::testing::HostTensor;

TEST_CASE("opencl op table: a row for every op of op set v1 and four of v2, in table order") {
  const auto& table = backplane::opencl::Ops();
  CHECK(table.Backend() == "GpuOpenCl");
  const auto types = table.LayerTypes();
  CHECK(types.size() == 24);
  for (const LayerType type : types) {
    const auto* op = table.Find(type);
    REQUIRE(op != nullptr);
    CHECK(op->type == type);
  }
  for (const LayerType type : {LayerType::kInput, LayerType::kOutput, LayerType::kConstant, LayerType::kPreCompiled}) {
    CHECK(table.Find(type) == nullptr);
  }
}

TEST_CASE("opencl op table: no descriptor, non-f32 tensors and f16 casts are refused with a reason") {
  const std::vector<HostTensor> inputs{HostTensor::F32({2}, {1, 2})};
  backplane::reference::testing::TestLayer bare(LayerType::kActivation, nullptr, inputs,
                                                {{{2}, DataType::kFloat32}});
  std::string reason;
  CHECK(backplane::opencl::Ops().Supporting(bare, reason) == nullptr);
  CHECK(reason == "the layer has no descriptor");

  backplane::ActivationDescriptor relu;
  reason.clear();
  CHECK_FALSE(backplane::opencl::testing::Supported(relu, {HostTensor::I32({2}, {1, 2})},
                                                     {{{2}, DataType::kInt32}}, reason));
  CHECK(reason == "input 0 is i32; GpuOpenCl runs Activation on f32 only");

  backplane::GatherDescriptor gather;
  reason.clear();
  CHECK(backplane::opencl::testing::Supported(gather, {HostTensor::F32({3}, {1, 2, 3}), HostTensor::I64({1}, {2})},
                                              {{{1}, DataType::kFloat32}}, reason));
  CHECK_FALSE(backplane::opencl::testing::Supported(gather, {HostTensor::I64({3}, {1, 2, 3}), HostTensor::I64({1}, {2})},
                                                    {{{1}, DataType::kInt64}}, reason));
  CHECK(reason == "input 0 is i64; GpuOpenCl runs Gather on f32 only");

  backplane::ResizeDescriptor resize;
  resize.sizes = {2};
  resize.scales = {1.0};
  reason.clear();
  CHECK_FALSE(backplane::opencl::testing::Supported(resize, {HostTensor::I32({2}, {1, 2})},
                                                    {{{2}, DataType::kInt32}}, reason));
  CHECK(reason == "input 0 is i32; GpuOpenCl runs Resize on f32 only");

  backplane::CastDescriptor to_f16;
  to_f16.to = DataType::kFloat16;
  reason.clear();
  CHECK_FALSE(backplane::opencl::testing::Supported(to_f16, {HostTensor::F32({2}, {1, 2})},
                                                    {{{2}, DataType::kFloat16}}, reason));
  CHECK(reason == "f16 is not supported; GpuOpenCl casts between f32, i32, i64 and bool");
}
