// Reshape, Flatten, Transpose, Concat, Split, Slice, Gather, Pad and Cast against small cases
// worked out by hand and naive index loops written here, on several element types.
#include "op_test_harness.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

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
using backplane::TensorInfo;
using backplane::TensorShape;
using backplane::TransposeDescriptor;
using backplane::backend::HostTensorHandle;
using backplane::reference::testing::HostTensor;
using backplane::reference::testing::IsSupported;
using backplane::reference::testing::RunOp;
using backplane::reference::testing::TestLayer;

std::vector<float> Iota(std::int64_t count, float start = 0.0f) {
  std::vector<float> values(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = start + static_cast<float>(i);
  return values;
}

std::vector<std::int64_t> Iota64(std::int64_t count, std::int64_t start = 0) {
  std::vector<std::int64_t> values(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = start + static_cast<std::int64_t>(i);
  return values;
}

HostTensor Bools(const TensorShape& shape, const std::vector<std::uint8_t>& values) {
  return HostTensor::From(shape, values, DataType::kBool);
}

ReshapeDescriptor Reshape(std::vector<std::int64_t> shape) {
  ReshapeDescriptor descriptor;
  descriptor.shape = std::move(shape);
  return descriptor;
}

FlattenDescriptor Flatten(std::int32_t axis) {
  FlattenDescriptor descriptor;
  descriptor.axis = axis;
  return descriptor;
}

TransposeDescriptor Transpose(std::vector<std::uint32_t> permutation) {
  TransposeDescriptor descriptor;
  descriptor.permutation = std::move(permutation);
  return descriptor;
}

ConcatDescriptor Concat(std::int32_t axis) {
  ConcatDescriptor descriptor;
  descriptor.axis = axis;
  return descriptor;
}

SplitDescriptor Split(std::int32_t axis, std::vector<std::int64_t> sizes) {
  SplitDescriptor descriptor;
  descriptor.axis = axis;
  descriptor.sizes = std::move(sizes);
  return descriptor;
}

SliceDescriptor Slice(std::vector<std::int64_t> starts, std::vector<std::int64_t> ends,
                      std::vector<std::int32_t> axes = {}, std::vector<std::int64_t> steps = {}) {
  SliceDescriptor descriptor;
  descriptor.starts = std::move(starts);
  descriptor.ends = std::move(ends);
  descriptor.axes = std::move(axes);
  descriptor.steps = std::move(steps);
  return descriptor;
}

GatherDescriptor Gather(std::int32_t axis) {
  GatherDescriptor descriptor;
  descriptor.axis = axis;
  return descriptor;
}

PadDescriptor Pad(std::vector<std::int64_t> pads, PadMode mode, float value = 0.0f) {
  PadDescriptor descriptor;
  descriptor.pads = std::move(pads);
  descriptor.mode = mode;
  descriptor.value = value;
  return descriptor;
}

CastDescriptor Cast(DataType to) {
  CastDescriptor descriptor;
  descriptor.to = to;
  return descriptor;
}

template <typename Descriptor>
std::vector<float> RunF32(const Descriptor& descriptor, const TensorShape& shape, const std::vector<float>& x,
                          const TensorShape& out) {
  const std::vector<HostTensor> outputs = RunOp(descriptor, {HostTensor::F32(shape, x)}, {{out, DataType::kFloat32}});
  return outputs[0].As<float>();
}

constexpr std::int64_t kMaxI64 = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t kMinI64 = std::numeric_limits<std::int64_t>::min();

}  // namespace

// ---- Reshape and Flatten ----

TEST_CASE("reshape: copies the bytes of any type unchanged") {
  CHECK(RunF32(Reshape({3, 2}), {2, 3}, Iota(6), {3, 2}) == Iota(6));
  const auto i64 = RunOp(Reshape({0, -1}), {HostTensor::I64({2, 3, 2}, Iota64(12, -5))},
                         {{{2, 6}, DataType::kInt64}})[0];
  CHECK(i64.As<std::int64_t>() == Iota64(12, -5));
  const auto bools = RunOp(Reshape({4}), {Bools({2, 2}, {1, 0, 0, 1})}, {{{4}, DataType::kBool}})[0];
  CHECK(bools.As<std::uint8_t>() == std::vector<std::uint8_t>{1, 0, 0, 1});
}

TEST_CASE("reshape: input and output sharing memory is left as it is") {
  const std::vector<HostTensor> inputs{HostTensor::F32({2, 3}, Iota(6))};
  const auto descriptor = Reshape({6});
  const TestLayer layer(backplane::backend::LayerType::kReshape, &descriptor, inputs, {{{6}, DataType::kFloat32}});
  const auto workload = backplane::reference::Ops().Find(backplane::backend::LayerType::kReshape)->create(layer);
  auto shared = Iota(6, 10.0f);
  HostTensorHandle in_handle(inputs[0].info, shared.data());
  HostTensorHandle out_handle({{6}, DataType::kFloat32}, shared.data());
  const std::vector<backplane::backend::ITensorHandle*> in{&in_handle}, out{&out_handle};
  workload->Execute({in, out, nullptr});
  CHECK(shared == Iota(6, 10.0f));
}

TEST_CASE("reshape: support checks the element count and the requested shape") {
  std::string reason;
  const auto x = HostTensor::F32({2, 3}, Iota(6));
  CHECK_FALSE(IsSupported(Reshape({4}), {x}, {{{4}, DataType::kFloat32}}, reason));
  CHECK(reason == "cannot reshape [2,3] (6 elements) to [4] (4)");
  CHECK_FALSE(IsSupported(Reshape({3, 2}), {x}, {{{6}, DataType::kFloat32}}, reason));
  CHECK(reason == "output 0 is f32 [6], the op gives f32 [3,2]");
  CHECK_FALSE(IsSupported(Reshape({0, -1}), {x}, {{{3, 2}, DataType::kFloat32}}, reason));
  CHECK(reason == "output 0 is f32 [3,2], the op gives f32 [2,3]");
  CHECK_FALSE(IsSupported(Reshape({-1, -1}), {x}, {{{2, 3}, DataType::kFloat32}}, reason));
  CHECK(reason == "target [-1,-1] has more than one -1");
  CHECK_FALSE(IsSupported(Reshape({6}), {x}, {{{6}, DataType::kInt32}}, reason));
  CHECK(reason == "output 0 is i32 [6], the op gives f32 [6]");
  CHECK(IsSupported(Reshape({-1, 2}), {x}, {{{3, 2}, DataType::kFloat32}}, reason));
}

TEST_CASE("flatten: output shapes for every axis, negative included, and the bytes unchanged") {
  const TensorShape shape{2, 3, 4};
  const auto x = Iota(24);
  CHECK(RunF32(Flatten(0), shape, x, {1, 24}) == x);
  CHECK(RunF32(Flatten(1), shape, x, {2, 12}) == x);
  CHECK(RunF32(Flatten(-1), shape, x, {6, 4}) == x);
  CHECK(RunF32(Flatten(3), shape, x, {24, 1}) == x);
  CHECK(RunF32(Flatten(-3), shape, x, {1, 24}) == x);
  const auto i32 = RunOp(Flatten(1), {HostTensor::I32({2, 2}, {1, -2, 3, -4})}, {{{2, 2}, DataType::kInt32}})[0];
  CHECK(i32.As<std::int32_t>() == std::vector<std::int32_t>{1, -2, 3, -4});
}

TEST_CASE("flatten: support rejects an axis out of range and a wrong output shape") {
  std::string reason;
  const auto x = HostTensor::F32({2, 3, 4}, Iota(24));
  CHECK_FALSE(IsSupported(Flatten(4), {x}, {{{24, 1}, DataType::kFloat32}}, reason));
  CHECK(reason == "axis 4 is out of range [-3, 3] for input [2,3,4] of rank 3");
  CHECK_FALSE(IsSupported(Flatten(-4), {x}, {{{1, 24}, DataType::kFloat32}}, reason));
  CHECK(reason == "axis -4 is out of range [-3, 3] for input [2,3,4] of rank 3");
  CHECK_FALSE(IsSupported(Flatten(2), {x}, {{{2, 12}, DataType::kFloat32}}, reason));
  CHECK(reason == "output 0 is f32 [2,12], the op gives f32 [6,4]");
}

// ---- Transpose ----

TEST_CASE("transpose: 2-D by hand") {
  CHECK(RunF32(Transpose({1, 0}), {2, 3}, {1, 2, 3, 4, 5, 6}, {3, 2}) == std::vector<float>{1, 4, 2, 5, 3, 6});
}

TEST_CASE("transpose: every permutation of [2,3,4] against a naive loop, f32 and i64") {
  const TensorShape shape{2, 3, 4};
  const std::vector<std::vector<std::uint32_t>> permutations{{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                                             {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (const auto& permutation : permutations) {
    CAPTURE(permutation[0]);
    CAPTURE(permutation[1]);
    CAPTURE(permutation[2]);
    const std::int64_t dims[3] = {shape[permutation[0]], shape[permutation[1]], shape[permutation[2]]};
    std::vector<std::int64_t> expected;
    for (std::int64_t i = 0; i < dims[0]; ++i) {
      for (std::int64_t j = 0; j < dims[1]; ++j) {
        for (std::int64_t k = 0; k < dims[2]; ++k) {
          std::int64_t index[3];
          index[permutation[0]] = i;
          index[permutation[1]] = j;
          index[permutation[2]] = k;
          expected.push_back((index[0] * 3 + index[1]) * 4 + index[2]);
        }
      }
    }
    const TensorShape out{dims[0], dims[1], dims[2]};
    const auto result = RunOp(Transpose(permutation), {HostTensor::I64(shape, Iota64(24))}, {{out, DataType::kInt64}});
    CHECK(result[0].As<std::int64_t>() == expected);
    const auto as_float = RunF32(Transpose(permutation), shape, Iota(24), out);
    CHECK(std::vector<std::int64_t>(as_float.begin(), as_float.end()) == expected);
  }
}

TEST_CASE("transpose: empty permutation reverses the axes, 1-byte elements") {
  const auto result = RunOp(Transpose({}), {Bools({2, 1, 3}, {1, 0, 0, 0, 1, 1})}, {{{3, 1, 2}, DataType::kBool}});
  CHECK(result[0].As<std::uint8_t>() == std::vector<std::uint8_t>{1, 0, 0, 1, 0, 1});
}

TEST_CASE("transpose: NCHW to NHWC on an odd shape") {
  const TensorShape shape{2, 3, 5, 7};
  const auto x = Iota(shape.NumElements());
  const auto y = RunF32(Transpose({0, 2, 3, 1}), shape, x, {2, 5, 7, 3});
  for (int n = 0; n < 2; ++n)
    for (int h = 0; h < 5; ++h)
      for (int w = 0; w < 7; ++w)
        for (int c = 0; c < 3; ++c) {
          CHECK(y[static_cast<std::size_t>(((n * 5 + h) * 7 + w) * 3 + c)] == x[static_cast<std::size_t>(((n * 3 + c) * 5 + h) * 7 + w)]);
        }
}

TEST_CASE("transpose: support rejects a repeated or out-of-range axis, a wrong length and a wrong output") {
  std::string reason;
  const auto x = HostTensor::F32({2, 3, 4}, Iota(24));
  CHECK_FALSE(IsSupported(Transpose({0, 0, 1}), {x}, {{{2, 2, 3}, DataType::kFloat32}}, reason));
  CHECK(reason == "permutation [0,0,1] is not a permutation of 0..2 (axis 0 repeats)");
  CHECK_FALSE(IsSupported(Transpose({0, 3, 1}), {x}, {{{2, 4, 3}, DataType::kFloat32}}, reason));
  CHECK(reason == "permutation [0,3,1] is not a permutation of 0..2 (axis 3 is out of range)");
  CHECK_FALSE(IsSupported(Transpose({1, 0}), {x}, {{{3, 2, 4}, DataType::kFloat32}}, reason));
  CHECK(reason == "permutation [1,0] has 2 entries, input [2,3,4] has rank 3");
  CHECK_FALSE(IsSupported(Transpose({2, 1, 0}), {x}, {{{2, 3, 4}, DataType::kFloat32}}, reason));
  CHECK(reason == "output 0 is f32 [2,3,4], the op gives f32 [4,3,2]");
}

// ---- Concat and Split ----

TEST_CASE("concat: along the middle axis, i32, by hand") {
  const auto result = RunOp(Concat(1),
                            {HostTensor::I32({2, 1, 2}, {1, 2, 3, 4}), HostTensor::I32({2, 2, 2}, {5, 6, 7, 8, 9, 10, 11, 12})},
                            {{{2, 3, 2}, DataType::kInt32}});
  CHECK(result[0].As<std::int32_t>() == std::vector<std::int32_t>{1, 2, 5, 6, 7, 8, 3, 4, 9, 10, 11, 12});
}

TEST_CASE("concat: three inputs on the last axis (negative), one of them empty") {
  const auto y = RunOp(Concat(-1),
                       {HostTensor::F32({2, 2}, {1, 2, 3, 4}), HostTensor::F32({2, 0}, {}), HostTensor::F32({2, 1}, {5, 6}),
                        HostTensor::F32({2, 3}, {7, 8, 9, 10, 11, 12})},
                       {{{2, 6}, DataType::kFloat32}})[0]
                     .As<float>();
  CHECK(y == std::vector<float>{1, 2, 5, 7, 8, 9, 3, 4, 6, 10, 11, 12});
  CHECK(RunOp(Concat(0), {HostTensor::F32({1, 2}, {1, 2}), HostTensor::F32({2, 2}, {3, 4, 5, 6})},
              {{{3, 2}, DataType::kFloat32}})[0]
            .As<float>() == Iota(6, 1.0f));
}

TEST_CASE("concat: support rejects mismatched shapes, types, an axis out of range and no inputs") {
  std::string reason;
  CHECK_FALSE(IsSupported(Concat(0), {HostTensor::F32({1, 2}, {1, 2}), HostTensor::F32({1, 3}, {1, 2, 3})},
                          {{{2, 2}, DataType::kFloat32}}, reason));
  CHECK(reason == "input 1 f32 [1,3] does not fit input 0 f32 [1,2] outside axis 0");
  CHECK_FALSE(IsSupported(Concat(0), {HostTensor::F32({1, 2}, {1, 2}), HostTensor::I32({1, 2}, {1, 2})},
                          {{{2, 2}, DataType::kFloat32}}, reason));
  CHECK(reason == "input 1 i32 [1,2] does not fit input 0 f32 [1,2] outside axis 0");
  CHECK_FALSE(IsSupported(Concat(2), {HostTensor::F32({1, 2}, {1, 2})}, {{{1, 2}, DataType::kFloat32}}, reason));
  CHECK(reason == "axis 2 is out of range [-2, 1] for input [1,2] of rank 2");
  CHECK_FALSE(IsSupported(Concat(0), {HostTensor::F32({1, 2}, {1, 2}), HostTensor::F32({1, 2}, {1, 2})},
                          {{{3, 2}, DataType::kFloat32}}, reason));
  CHECK(reason == "output 0 is f32 [3,2], the op gives f32 [2,2]");
  CHECK_FALSE(IsSupported(Concat(0), {}, {{{3, 2}, DataType::kFloat32}}, reason));
  CHECK(reason == "takes at least 1 input, has none");
}

TEST_CASE("split: sizes along the middle axis, and back through concat") {
  const auto x = Iota64(12);
  const auto parts = RunOp(Split(1, {1, 2}), {HostTensor::I64({2, 3, 2}, x)},
                           {{{2, 1, 2}, DataType::kInt64}, {{2, 2, 2}, DataType::kInt64}});
  CHECK(parts[0].As<std::int64_t>() == std::vector<std::int64_t>{0, 1, 6, 7});
  CHECK(parts[1].As<std::int64_t>() == std::vector<std::int64_t>{2, 3, 4, 5, 8, 9, 10, 11});
  const auto joined = RunOp(Concat(1), {parts[0], parts[1]}, {{{2, 3, 2}, DataType::kInt64}});
  CHECK(joined[0].As<std::int64_t>() == x);
}

TEST_CASE("split: empty sizes split equally, negative axis, zero-length parts") {
  const auto equal = RunOp(Split(-1, {}), {HostTensor::F32({2, 6}, Iota(12))},
                           {{{2, 2}, DataType::kFloat32}, {{2, 2}, DataType::kFloat32}, {{2, 2}, DataType::kFloat32}});
  CHECK(equal[0].As<float>() == std::vector<float>{0, 1, 6, 7});
  CHECK(equal[1].As<float>() == std::vector<float>{2, 3, 8, 9});
  CHECK(equal[2].As<float>() == std::vector<float>{4, 5, 10, 11});
  const auto zero = RunOp(Split(0, {0, 3}), {HostTensor::F32({3}, {1, 2, 3})},
                          {{{0}, DataType::kFloat32}, {{3}, DataType::kFloat32}});
  CHECK(zero[0].bytes.empty());
  CHECK(zero[1].As<float>() == std::vector<float>{1, 2, 3});
}

TEST_CASE("split: support rejects sizes that do not fit and wrong outputs") {
  std::string reason;
  const auto x = HostTensor::F32({2, 3}, Iota(6));
  CHECK_FALSE(IsSupported(Split(1, {1, 1}), {x}, {{{2, 1}, DataType::kFloat32}, {{2, 1}, DataType::kFloat32}}, reason));
  CHECK(reason == "sizes [1,1] sum to 2, axis 1 of input [2,3] has length 3");
  CHECK_FALSE(IsSupported(Split(1, {1, 2}), {x}, {{{2, 3}, DataType::kFloat32}}, reason));
  CHECK(reason == "2 sizes [1,2] for 1 output");
  CHECK_FALSE(IsSupported(Split(1, {}), {x}, {{{2, 1}, DataType::kFloat32}, {{2, 2}, DataType::kFloat32}}, reason));
  CHECK(reason == "without sizes, axis 1 of length 3 (input [2,3]) does not divide into 2 equal parts");
  CHECK_FALSE(IsSupported(Split(2, {3}), {x}, {{{2, 3}, DataType::kFloat32}}, reason));
  CHECK(reason == "axis 2 is out of range [-2, 1] for input [2,3] of rank 2");
  CHECK_FALSE(IsSupported(Split(0, {1, 1}), {x}, {{{1, 3}, DataType::kFloat32}, {{1, 2}, DataType::kFloat32}}, reason));
  CHECK(reason == "output 1 is f32 [1,2], the op gives f32 [1,3]");
}

// ---- Slice ----

TEST_CASE("slice: 1-D steps by hand, positive and negative, with clamping") {
  const auto x = Iota(10);
  CHECK(RunF32(Slice({1}, {8}, {}, {3}), {10}, x, {3}) == std::vector<float>{1, 4, 7});
  CHECK(RunF32(Slice({8}, {1}, {}, {-3}), {10}, x, {3}) == std::vector<float>{8, 5, 2});
  CHECK(RunF32(Slice({-1}, {kMinI64}, {}, {-1}), {10}, x, {10}) == std::vector<float>{9, 8, 7, 6, 5, 4, 3, 2, 1, 0});
  CHECK(RunF32(Slice({-3}, {kMaxI64}), {10}, x, {3}) == std::vector<float>{7, 8, 9});
  CHECK(RunF32(Slice({-100}, {2}), {10}, x, {2}) == std::vector<float>{0, 1});
  CHECK(RunF32(Slice({100}, {-100}, {}, {-4}), {10}, x, {3}) == std::vector<float>{9, 5, 1});
  CHECK(RunF32(Slice({5}, {2}), {10}, x, {0}).empty());
  CHECK(RunF32(Slice({0}, {10}, {}, {kMaxI64}), {10}, x, {1}) == std::vector<float>{0});
  CHECK(RunF32(Slice({9}, {kMinI64}, {}, {kMinI64}), {10}, x, {1}) == std::vector<float>{9});
}

TEST_CASE("slice: 2-D with axes out of order, negative axes and a negative step, i64") {
  // [3,4] = 0..11; rows 2 down to 1, columns 1..3 step 2.
  const auto result = RunOp(Slice({1, 2}, {4, 0}, {-1, 0}, {2, -1}), {HostTensor::I64({3, 4}, Iota64(12))},
                            {{{2, 2}, DataType::kInt64}});
  CHECK(result[0].As<std::int64_t>() == std::vector<std::int64_t>{9, 11, 5, 7});
}

TEST_CASE("slice: [2,3,4,5] against a naive loop") {
  const TensorShape shape{2, 3, 4, 5};
  const auto x = Iota(shape.NumElements());
  // axis 1: 2, 1, 0 (reversed); axis 3: 1, 3; axes 0 and 2 untouched.
  const auto y = RunF32(Slice({-1, 1}, {-100, 5}, {1, 3}, {-1, 2}), shape, x, {2, 3, 4, 2});
  std::vector<float> expected;
  for (int a = 0; a < 2; ++a)
    for (int b = 2; b >= 0; --b)
      for (int c = 0; c < 4; ++c)
        for (int d = 1; d < 5; d += 2) expected.push_back(x[static_cast<std::size_t>(((a * 3 + b) * 4 + c) * 5 + d)]);
  CHECK(y == expected);
}

TEST_CASE("slice: support rejects a zero step, repeated axes, mismatched lists and a wrong output") {
  std::string reason;
  const auto x = HostTensor::F32({4, 5}, Iota(20));
  CHECK_FALSE(IsSupported(Slice({0}, {4}, {0}, {0}), {x}, {{{4, 5}, DataType::kFloat32}}, reason));
  CHECK(reason == "the step for axis 0 is 0");
  CHECK_FALSE(IsSupported(Slice({0, 1}, {4, 3}, {1, -1}), {x}, {{{4, 2}, DataType::kFloat32}}, reason));
  CHECK(reason == "axis 1 of [4,5] is sliced twice");
  CHECK_FALSE(IsSupported(Slice({0, 1}, {4}), {x}, {{{4, 5}, DataType::kFloat32}}, reason));
  CHECK(reason == "2 starts, 1 ends, 0 axes and 0 steps; ends, and axes and steps when given, need one per start");
  CHECK_FALSE(IsSupported(Slice({0}, {1}, {2}), {x}, {{{4, 5}, DataType::kFloat32}}, reason));
  CHECK(reason == "axis 2 is out of range [-2, 1] for input [4,5] of rank 2");
  CHECK_FALSE(IsSupported(Slice({1}, {3}), {x}, {{{3, 5}, DataType::kFloat32}}, reason));
  CHECK(reason == "output 0 is f32 [3,5], the op gives f32 [2,5]");
}

// ---- Gather ----

TEST_CASE("gather: axis 0 with i64 indices, negative ones counting from the end") {
  const auto y = RunOp(Gather(0), {HostTensor::F32({3, 2}, {1, 2, 3, 4, 5, 6}), HostTensor::I64({3}, {2, -3, -1})},
                       {{{3, 2}, DataType::kFloat32}})[0]
                     .As<float>();
  CHECK(y == std::vector<float>{5, 6, 1, 2, 5, 6});
}

TEST_CASE("gather: axis 1 with 2-D i32 indices inserts their shape") {
  // data [2,3]; indices [[1,0],[-1,1]] -> output [2,2,2]: out[i][j][k] = data[i][idx[j][k]].
  const auto y = RunOp(Gather(-1), {HostTensor::I64({2, 3}, {10, 11, 12, 20, 21, 22}), HostTensor::I32({2, 2}, {1, 0, -1, 1})},
                       {{{2, 2, 2}, DataType::kInt64}})[0]
                     .As<std::int64_t>();
  CHECK(y == std::vector<std::int64_t>{11, 10, 12, 11, 21, 20, 22, 21});
}

TEST_CASE("gather: a scalar index drops the axis, [2,3,4] on the middle axis against a naive loop") {
  const auto row = RunOp(Gather(0), {HostTensor::F32({3, 2}, {1, 2, 3, 4, 5, 6}), HostTensor::I64({}, {1})},
                         {{{2}, DataType::kFloat32}})[0]
                       .As<float>();
  CHECK(row == std::vector<float>{3, 4});

  const auto x = Iota(24);
  const std::vector<std::int32_t> indices{2, 0, -2, 1, 1};
  const auto y = RunOp(Gather(1), {HostTensor::F32({2, 3, 4}, x), HostTensor::I32({5}, indices)},
                       {{{2, 5, 4}, DataType::kFloat32}})[0]
                     .As<float>();
  std::vector<float> expected;
  for (int a = 0; a < 2; ++a)
    for (const auto index : indices)
      for (int c = 0; c < 4; ++c) expected.push_back(x[static_cast<std::size_t>((a * 3 + (index + 3) % 3) * 4 + c)]);
  CHECK(y == expected);
}

TEST_CASE("gather: an index out of range throws at execution, naming the index and the range") {
  try {
    RunOp(Gather(0), {HostTensor::F32({3, 2}, Iota(6)), HostTensor::I64({2}, {1, 3})}, {{{2, 2}, DataType::kFloat32}});
    FAIL("Execute returned instead of throwing");
  } catch (const backplane::Exception& error) {
    CHECK(error.code() == backplane::ErrorCode::kInvalidArgument);
    CHECK(std::string(error.what()) ==
          "Gather index 3 (element 1 of the indices) is out of range [-3, 2] for axis 0 of data [3,2] "
          "(layer 'test_layer')");
  }
  CHECK_THROWS_WITH_AS(RunOp(Gather(1), {HostTensor::F32({3, 2}, Iota(6)), HostTensor::I32({1}, {-3})},
                             {{{3, 1}, DataType::kFloat32}}),
                       "Gather index -3 (element 0 of the indices) is out of range [-2, 1] for axis 1 of data [3,2] "
                       "(layer 'test_layer')",
                       backplane::Exception);
}

TEST_CASE("gather: support rejects float indices, a bad axis and a wrong output shape") {
  std::string reason;
  const auto data = HostTensor::F32({3, 2}, Iota(6));
  CHECK_FALSE(IsSupported(Gather(0), {data, HostTensor::F32({1}, {0})}, {{{1, 2}, DataType::kFloat32}}, reason));
  CHECK(reason == "indices (input 1) must be i32 or i64, not f32");
  CHECK_FALSE(IsSupported(Gather(2), {data, HostTensor::I64({1}, {0})}, {{{1, 2}, DataType::kFloat32}}, reason));
  CHECK(reason == "axis 2 is out of range [-2, 1] for input [3,2] of rank 2");
  CHECK_FALSE(IsSupported(Gather(0), {data, HostTensor::I64({2}, {0, 1})}, {{{2}, DataType::kFloat32}}, reason));
  CHECK(reason == "output 0 is f32 [2], the op gives f32 [2,2]");
}

// ---- Pad ----

TEST_CASE("pad: constant on both axes with ONNX pads order, by hand") {
  // [2,3], pads begin (1, 0), end (0, 2), value 9.
  const auto y = RunF32(Pad({1, 0, 0, 2}, PadMode::kConstant, 9), {2, 3}, {1, 2, 3, 4, 5, 6}, {3, 5});
  CHECK(y == std::vector<float>{9, 9, 9, 9, 9, 1, 2, 3, 9, 9, 4, 5, 6, 9, 9});
}

TEST_CASE("pad: reflect and edge in 1-D, including pads wider than the axis") {
  const std::vector<float> x{1, 2, 3};
  CHECK(RunF32(Pad({2, 2}, PadMode::kReflect), {3}, x, {7}) == std::vector<float>{3, 2, 1, 2, 3, 2, 1});
  CHECK(RunF32(Pad({2, 2}, PadMode::kEdge), {3}, x, {7}) == std::vector<float>{1, 1, 1, 2, 3, 3, 3});
  CHECK(RunF32(Pad({5, 4}, PadMode::kReflect), {3}, x, {12}) ==
        std::vector<float>{2, 1, 2, 3, 2, 1, 2, 3, 2, 1, 2, 3});
  CHECK(RunF32(Pad({2, 1}, PadMode::kReflect), {1}, {7}, {4}) == std::vector<float>{7, 7, 7, 7});
}

TEST_CASE("pad: reflect and edge on both axes of a 2-D input") {
  // 1 2 3
  // 4 5 6
  // 7 8 9
  const auto x = Iota(9, 1.0f);
  CHECK(RunF32(Pad({1, 1, 1, 1}, PadMode::kReflect), {3, 3}, x, {5, 5}) ==
        std::vector<float>{5, 4, 5, 6, 5, 2, 1, 2, 3, 2, 5, 4, 5, 6, 5, 8, 7, 8, 9, 8, 5, 4, 5, 6, 5});
  CHECK(RunF32(Pad({0, 2, 1, 0}, PadMode::kEdge), {3, 3}, x, {4, 5}) ==
        std::vector<float>{1, 1, 1, 2, 3, 4, 4, 4, 5, 6, 7, 7, 7, 8, 9, 7, 7, 7, 8, 9});
}

TEST_CASE("pad: negative pads crop, integer and bool constants") {
  CHECK(RunF32(Pad({-1, 1}, PadMode::kConstant), {4}, {1, 2, 3, 4}, {4}) == std::vector<float>{2, 3, 4, 0});
  CHECK(RunF32(Pad({1, -2}, PadMode::kEdge), {4}, {1, 2, 3, 4}, {3}) == std::vector<float>{1, 1, 2});
  const auto i32 = RunOp(Pad({0, 1, 0, 1}, PadMode::kConstant, -7), {HostTensor::I32({2, 1}, {5, 6})},
                         {{{2, 3}, DataType::kInt32}})[0];
  CHECK(i32.As<std::int32_t>() == std::vector<std::int32_t>{-7, 5, -7, -7, 6, -7});
  const auto i64 = RunOp(Pad({1, 0}, PadMode::kReflect), {HostTensor::I64({2}, {kMaxI64, 4})}, {{{3}, DataType::kInt64}})[0];
  CHECK(i64.As<std::int64_t>() == std::vector<std::int64_t>{4, kMaxI64, 4});
  const auto bools = RunOp(Pad({1, 1}, PadMode::kConstant, 1), {Bools({1}, {0})}, {{{3}, DataType::kBool}})[0];
  CHECK(bools.As<std::uint8_t>() == std::vector<std::uint8_t>{1, 0, 1});
}

TEST_CASE("pad: [2,3,4] constant against a naive loop") {
  const TensorShape shape{2, 3, 4};
  const auto x = Iota(24, 1.0f);
  const std::vector<std::int64_t> pads{1, 0, 2, 0, 2, 1};  // out [3,5,7]
  const auto y = RunF32(Pad(pads, PadMode::kConstant, -1), shape, x, {3, 5, 7});
  std::vector<float> expected;
  for (int a = 0; a < 3; ++a)
    for (int b = 0; b < 5; ++b)
      for (int c = 0; c < 7; ++c) {
        const int i = a - 1, j = b, k = c - 2;
        const bool inside = i >= 0 && i < 2 && j >= 0 && j < 3 && k >= 0 && k < 4;
        expected.push_back(inside ? x[static_cast<std::size_t>((i * 3 + j) * 4 + k)] : -1.0f);
      }
  CHECK(y == expected);
}

TEST_CASE("pad: support rejects a wrong pads length, an inexact constant and edge padding of an empty axis") {
  std::string reason;
  CHECK_FALSE(IsSupported(Pad({1, 1}, PadMode::kConstant), {HostTensor::F32({2, 2}, Iota(4))},
                          {{{4, 2}, DataType::kFloat32}}, reason));
  CHECK(reason == "2 pads for rank 2; need 4 (all begins, then all ends)");
  CHECK_FALSE(IsSupported(Pad({1, 1}, PadMode::kConstant, 0.5f), {HostTensor::I32({2}, {1, 2})},
                          {{{4}, DataType::kInt32}}, reason));
  CHECK(reason == "the pad value 0.500000 cannot be represented exactly as i32");
  CHECK_FALSE(IsSupported(Pad({1, 0}, PadMode::kEdge), {HostTensor::F32({0}, {})}, {{{1}, DataType::kFloat32}}, reason));
  CHECK(reason == "cannot edge-pad axis 0 of [0]: it is empty");
  CHECK_FALSE(IsSupported(Pad({-2, -1}, PadMode::kConstant), {HostTensor::F32({2}, {1, 2})}, {{{0}, DataType::kFloat32}},
                          reason));
  CHECK(reason == "pads [-2,-1] make axis 0 of [2] negative");
  CHECK_FALSE(IsSupported(Pad({1, 1}, PadMode::kConstant), {HostTensor::F32({2}, {1, 2})}, {{{3}, DataType::kFloat32}},
                          reason));
  CHECK(reason == "output 0 is f32 [3], the op gives f32 [4]");
}

// ---- Cast ----

TEST_CASE("cast: f32 to integers truncates toward zero") {
  const auto x = HostTensor::F32({5}, {-1.7f, 2.9f, -0.2f, 0.0f, 123456.75f});
  CHECK(RunOp(Cast(DataType::kInt32), {x}, {{{5}, DataType::kInt32}})[0].As<std::int32_t>() ==
        std::vector<std::int32_t>{-1, 2, 0, 0, 123456});
  CHECK(RunOp(Cast(DataType::kInt64), {x}, {{{5}, DataType::kInt64}})[0].As<std::int64_t>() ==
        std::vector<std::int64_t>{-1, 2, 0, 0, 123456});
}

TEST_CASE("cast: f32 out of an integer's range saturates and NaN becomes 0") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto x = HostTensor::F32({4}, {3e9f, -3e9f, nan, 1e30f});
  CHECK(RunOp(Cast(DataType::kInt32), {x}, {{{4}, DataType::kInt32}})[0].As<std::int32_t>() ==
        std::vector<std::int32_t>{std::numeric_limits<std::int32_t>::max(), std::numeric_limits<std::int32_t>::min(), 0,
                                  std::numeric_limits<std::int32_t>::max()});
  CHECK(RunOp(Cast(DataType::kInt64), {x}, {{{4}, DataType::kInt64}})[0].As<std::int64_t>() ==
        std::vector<std::int64_t>{3000000000LL, -3000000000LL, 0, kMaxI64});
}

TEST_CASE("cast: to and from bool") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  CHECK(RunOp(Cast(DataType::kBool), {HostTensor::F32({5}, {0.0f, -0.0f, 0.5f, nan, -3.0f})}, {{{5}, DataType::kBool}})[0]
            .As<std::uint8_t>() == std::vector<std::uint8_t>{0, 0, 1, 1, 1});
  CHECK(RunOp(Cast(DataType::kBool), {HostTensor::I64({3}, {0, 1LL << 40, -1})}, {{{3}, DataType::kBool}})[0]
            .As<std::uint8_t>() == std::vector<std::uint8_t>{0, 1, 1});
  CHECK(RunOp(Cast(DataType::kFloat32), {Bools({3}, {1, 0, 7})}, {{{3}, DataType::kFloat32}})[0].As<float>() ==
        std::vector<float>{1, 0, 1});
  CHECK(RunOp(Cast(DataType::kBool), {Bools({2}, {0, 7})}, {{{2}, DataType::kBool}})[0].As<std::uint8_t>() ==
        std::vector<std::uint8_t>{0, 1});
  CHECK(RunOp(Cast(DataType::kInt32), {Bools({2}, {1, 0})}, {{{2}, DataType::kInt32}})[0].As<std::int32_t>() ==
        std::vector<std::int32_t>{1, 0});
}

TEST_CASE("cast: between integer widths and to f32") {
  CHECK(RunOp(Cast(DataType::kInt32), {HostTensor::I64({3}, {(1LL << 32) + 5, -1, -(1LL << 31)})},
              {{{3}, DataType::kInt32}})[0]
            .As<std::int32_t>() == std::vector<std::int32_t>{5, -1, std::numeric_limits<std::int32_t>::min()});
  CHECK(RunOp(Cast(DataType::kInt64), {HostTensor::I32({2}, {-7, 2147483647})}, {{{2}, DataType::kInt64}})[0]
            .As<std::int64_t>() == std::vector<std::int64_t>{-7, 2147483647});
  CHECK(RunOp(Cast(DataType::kFloat32), {HostTensor::I32({3}, {-7, 0, 16777217})}, {{{3}, DataType::kFloat32}})[0]
            .As<float>() == std::vector<float>{-7, 0, 16777216});
  CHECK(RunOp(Cast(DataType::kFloat32), {HostTensor::F32({2}, {1.5f, -2})}, {{{2}, DataType::kFloat32}})[0].As<float>() ==
        std::vector<float>{1.5f, -2});
}

TEST_CASE("cast: the op set v2 types both ways (f16 rounds to nearest even, u8 wraps, f64 saturates into i8)") {
  const auto f16 = RunOp(Cast(DataType::kFloat16), {HostTensor::F32({3}, {1.0f, 65504.0f, 1.0f + 1.0f / 4096})},
                         {{{3}, DataType::kFloat16}})[0];
  CHECK(f16.As<std::uint16_t>() == std::vector<std::uint16_t>{0x3c00, 0x7bff, 0x3c00});
  CHECK(RunOp(Cast(DataType::kFloat32), {f16}, {{{3}, DataType::kFloat32}})[0].As<float>() ==
        std::vector<float>{1.0f, 65504.0f, 1.0f});
  CHECK(RunOp(Cast(DataType::kUInt8), {HostTensor::I32({3}, {255, 256, -1})}, {{{3}, DataType::kUInt8}})[0]
            .As<std::uint8_t>() == std::vector<std::uint8_t>{255, 0, 255});
  const auto f64 = HostTensor::From<double>({3}, {-1e300, 3.9, 1e300}, DataType::kFloat64);
  CHECK(RunOp(Cast(DataType::kInt8), {f64}, {{{3}, DataType::kInt8}})[0].As<std::int8_t>() ==
        std::vector<std::int8_t>{-128, 3, 127});
}

TEST_CASE("cast: support rejects an output type other than the descriptor's") {
  std::string reason;
  CHECK_FALSE(IsSupported(Cast(DataType::kInt32), {HostTensor::F32({1}, {1})}, {{{1}, DataType::kInt64}}, reason));
  CHECK(reason == "output 0 is i64 [1], the op gives i32 [1]");
  CHECK_FALSE(IsSupported(Cast(DataType::kInt32), {HostTensor::F32({2}, {1, 2})}, {{{1, 2}, DataType::kInt32}}, reason));
  CHECK(reason == "output 0 is i32 [1,2], the op gives i32 [2]");
}
