// GpuOpenCl Reshape, Flatten, Transpose, Concat, Split, Slice, Gather, Pad and Cast against
// CpuRef's ops (exact: these ops move values without arithmetic).
#include "opencl_op_test_harness.hpp"

#include <backplane/descriptors.hpp>

#include <doctest/doctest.h>

#include <limits>

namespace {

using backplane::CastDescriptor;
using backplane::ConcatDescriptor;
using backplane::DataType;
using backplane::FlattenDescriptor;
using backplane::GatherDescriptor;
using backplane::PadDescriptor;
using backplane::PadMode;
using backplane::ReshapeDescriptor;
using backplane::SliceDescriptor;
using backplane::SplitDescriptor;
using backplane::TensorShape;
using backplane::TransposeDescriptor;
using backplane::opencl::testing::CheckMatchesReference;
using backplane::opencl::testing::F32;
using backplane::opencl::testing::HostTensor;
using backplane::opencl::testing::RefusalReason;

}  // namespace

TEST_CASE("opencl reshape and flatten") {
  ReshapeDescriptor reshape;
  reshape.shape = {0, -1, 5};
  CheckMatchesReference(reshape, {F32({2, 3, 4, 5}, 1)}, {{{2, 12, 5}, DataType::kFloat32}}, 0.0);
  FlattenDescriptor flatten;
  flatten.axis = 2;
  CheckMatchesReference(flatten, {F32({2, 3, 4, 5}, 1)}, {{{6, 20}, DataType::kFloat32}}, 0.0);
}

TEST_CASE("opencl transpose: permutations, default reverse") {
  TransposeDescriptor d;
  d.permutation = {0, 2, 3, 1};
  CheckMatchesReference(d, {F32({2, 3, 4, 5}, 1)}, {{{2, 4, 5, 3}, DataType::kFloat32}}, 0.0);
  d.permutation = {0, 2, 1, 3};
  CheckMatchesReference(d, {F32({2, 7, 3, 16}, 1)}, {{{2, 3, 7, 16}, DataType::kFloat32}}, 0.0);
  CheckMatchesReference(TransposeDescriptor{}, {F32({3, 1, 5}, 1)}, {{{5, 1, 3}, DataType::kFloat32}}, 0.0);
  d.permutation = {0, 0, 1, 2};
  CHECK(RefusalReason(d, {F32({2, 3, 4, 5}, 1)}, {{{2, 2, 3, 4}, DataType::kFloat32}}).find("not a permutation") !=
        std::string::npos);
}

TEST_CASE("opencl concat and split along every axis") {
  for (std::int32_t axis = -3; axis < 3; ++axis) {
    CAPTURE(axis);
    const std::size_t a = static_cast<std::size_t>(axis < 0 ? axis + 3 : axis);
    std::vector<std::int64_t> d0{2, 3, 4}, d1{2, 3, 4}, d2{2, 3, 4}, out{2, 3, 4};
    d1[a] = 1;
    d2[a] = 5;
    out[a] = d0[a] + 1 + 5;
    ConcatDescriptor concat;
    concat.axis = axis;
    CheckMatchesReference(concat, {F32(TensorShape(d0), 1), F32(TensorShape(d1), 2, true), F32(TensorShape(d2), 3)},
                          {{TensorShape(out), DataType::kFloat32}}, 0.0);
    SplitDescriptor split;
    split.axis = axis;
    split.sizes = {d0[a], 1, 5};
    CheckMatchesReference(split, {F32(TensorShape(out), 4)},
                          {{TensorShape(d0), DataType::kFloat32},
                           {TensorShape(d1), DataType::kFloat32},
                           {TensorShape(d2), DataType::kFloat32}},
                          0.0);
  }
}

TEST_CASE("opencl slice: negative starts, steps of both signs, clamping") {
  SliceDescriptor d;
  d.starts = {1, -1, 0};
  d.ends = {3, -100, 100};
  d.axes = {0, 2, 3};
  d.steps = {1, -2, 3};
  CheckMatchesReference(d, {F32({4, 3, 6, 7}, 1)}, {{{2, 3, 3, 3}, DataType::kFloat32}}, 0.0);
  SliceDescriptor rows;
  rows.starts = {2};
  rows.ends = {5};
  CheckMatchesReference(rows, {F32({6, 8}, 1)}, {{{3, 8}, DataType::kFloat32}}, 0.0);
}

TEST_CASE("opencl gather: i64 and i32 indices, negative indices, every axis") {
  GatherDescriptor d;
  d.axis = 1;
  CheckMatchesReference(d, {F32({2, 5, 3}, 1), HostTensor::I64({2, 2}, {0, -1, 4, 2}, true)},
                        {{{2, 2, 2, 3}, DataType::kFloat32}}, 0.0);
  d.axis = 0;
  CheckMatchesReference(d, {F32({10, 4}, 1), HostTensor::I32({3}, {9, 0, -3})}, {{{3, 4}, DataType::kFloat32}}, 0.0);
  d.axis = -1;
  CheckMatchesReference(d, {F32({3, 6}, 1), HostTensor::I64({}, {5})}, {{{3}, DataType::kFloat32}}, 0.0);
  CHECK(RefusalReason(d, {F32({3, 6}, 1), F32({1}, 2)}, {{{3, 1}, DataType::kFloat32}}).find("i32 or i64") !=
        std::string::npos);
}

TEST_CASE("opencl pad: constant, reflect (wide), edge, negative pads") {
  const TensorShape x{2, 3, 4};
  PadDescriptor constant;
  constant.pads = {0, 1, 2, 1, 0, 3};
  constant.value = 1.5f;
  CheckMatchesReference(constant, {F32(x, 1)}, {{{3, 4, 9}, DataType::kFloat32}}, 0.0);
  PadDescriptor reflect;
  reflect.mode = PadMode::kReflect;
  reflect.pads = {0, 2, 7, 0, 3, 5};
  CheckMatchesReference(reflect, {F32(x, 1)}, {{{2, 8, 16}, DataType::kFloat32}}, 0.0);
  PadDescriptor edge;
  edge.mode = PadMode::kEdge;
  edge.pads = {1, 0, -1, 0, 2, 2};
  CheckMatchesReference(edge, {F32(x, 1)}, {{{3, 5, 5}, DataType::kFloat32}}, 0.0);
}

TEST_CASE("opencl cast between f32, i32, i64 and bool") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto floats = HostTensor::F32({8}, {1.7f, -2.7f, 0.0f, nan, 3e9f, -3e10f, 0.5f, -0.0f});
  for (const DataType to : {DataType::kFloat32, DataType::kInt32, DataType::kInt64, DataType::kBool}) {
    CAPTURE(std::string(backplane::ToString(to)));
    CastDescriptor d;
    d.to = to;
    if (to != DataType::kFloat32) CheckMatchesReference(d, {floats}, {{{8}, to}}, 0.0);
    CheckMatchesReference(d, {HostTensor::I64({4}, {5, -1, 0, 1LL << 40})}, {{{4}, to}}, 0.0);
    CheckMatchesReference(d, {HostTensor::I32({3}, {7, 0, -9})}, {{{3}, to}}, 0.0);
    CheckMatchesReference(d, {HostTensor::From<std::uint8_t>({3}, {0, 1, 2}, DataType::kBool)}, {{{3}, to}}, 0.0);
  }
  CastDescriptor half;
  half.to = DataType::kFloat16;
  CHECK(RefusalReason(half, {F32({2}, 1)}, {{{2}, DataType::kFloat16}}).find("f16") != std::string::npos);
}
