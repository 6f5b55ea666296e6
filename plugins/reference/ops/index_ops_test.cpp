// GatherElements, ArgMinMax, Trilu, TopK, CumSum, ScatterElements and GatherNd against
// hand-worked results: negative indices and out-of-range ones, ties and NaN, triangles with
// positive, negative and huge k, duplicates and reductions, batches.
#include "op_test_harness.hpp"

#include <backplane/exception.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace {

using backplane::ArgMinMaxDescriptor;
using backplane::CumSumDescriptor;
using backplane::GatherNdDescriptor;
using backplane::ScatterElementsDescriptor;
using backplane::ScatterReduction;
using backplane::TopKDescriptor;
using backplane::ArgOperation;
using backplane::DataType;
using backplane::GatherElementsDescriptor;
using backplane::TensorShape;
using backplane::TriluDescriptor;
using backplane::reference::testing::HostTensor;
using backplane::reference::testing::IsSupported;
using backplane::reference::testing::RunOp;
using I64s = std::vector<std::int64_t>;

GatherElementsDescriptor GatherAxis(std::int32_t axis) {
  GatherElementsDescriptor d;
  d.axis = axis;
  return d;
}

I64s Arg(ArgOperation operation, std::int32_t axis, bool last, const HostTensor& x, const TensorShape& out) {
  ArgMinMaxDescriptor d;
  d.operation = operation;
  d.axis = axis;
  d.select_last_index = last;
  return RunOp(d, {x}, {{out, DataType::kInt64}})[0].As<std::int64_t>();
}

std::vector<float> Triangle(bool upper, std::int64_t k, const HostTensor& x) {
  TriluDescriptor d;
  d.upper = upper;
  d.k = k;
  return RunOp(d, {x}, {x.info})[0].As<float>();
}

}  // namespace

TEST_CASE("gather_elements: picks along the axis, negative indices from the end, indices smaller than data") {
  const auto data = HostTensor::F32({2, 3}, {1, 2, 3, 4, 5, 6});
  CHECK(RunOp(GatherAxis(1), {data, HostTensor::I64({2, 2}, {0, -1, 2, 1})}, {{{2, 2}, DataType::kFloat32}})[0]
            .As<float>() == std::vector<float>{1, 3, 6, 5});
  CHECK(RunOp(GatherAxis(0), {data, HostTensor::I32({1, 3}, {1, 0, 1})}, {{{1, 3}, DataType::kFloat32}})[0]
            .As<float>() == std::vector<float>{4, 2, 6});
  CHECK(RunOp(GatherAxis(-2), {HostTensor::I64({2, 2}, {10, 20, 30, 40}), HostTensor::I64({2, 2}, {1, 1, 0, 0})},
              {{{2, 2}, DataType::kInt64}})[0]
            .As<std::int64_t>() == I64s{30, 40, 10, 20});
}

TEST_CASE("gather_elements: an out-of-range index fails the run naming it, the axis and the layer") {
  const auto data = HostTensor::F32({2, 3}, {1, 2, 3, 4, 5, 6});
  CHECK_THROWS_WITH_AS(RunOp(GatherAxis(1), {data, HostTensor::I64({2, 1}, {0, 3})}, {{{2, 1}, DataType::kFloat32}}),
                       "GatherElements index 3 (element 1 of the indices) is out of range [-3, 2] for axis 1 of data "
                       "[2,3] (layer 'test_layer')",
                       backplane::Exception);
  std::string reason;
  CHECK_FALSE(IsSupported(GatherAxis(1), {data, HostTensor::I64({3, 1}, {0, 0, 0})}, {{{3, 1}, DataType::kFloat32}}, reason));
  CHECK(reason.find("no dimension longer than data's [2,3]") != std::string::npos);
}

TEST_CASE("arg_min_max: first or last of ties, along any axis, NaN picked, i64 and i32 inputs") {
  const auto x = HostTensor::F32({2, 3}, {1, 5, 5, 7, 0, 0});
  CHECK(Arg(ArgOperation::kMax, 1, false, x, {2, 1}) == I64s{1, 0});
  CHECK(Arg(ArgOperation::kMax, 1, true, x, {2, 1}) == I64s{2, 0});
  CHECK(Arg(ArgOperation::kMin, 1, false, x, {2, 1}) == I64s{0, 1});
  CHECK(Arg(ArgOperation::kMin, 1, true, x, {2, 1}) == I64s{0, 2});
  CHECK(Arg(ArgOperation::kMax, 0, false, x, {1, 3}) == I64s{1, 0, 0});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto with_nan = HostTensor::F32({5}, {1, nan, 9, nan, -9});
  CHECK(Arg(ArgOperation::kMax, 0, false, with_nan, {1}) == I64s{1});
  CHECK(Arg(ArgOperation::kMin, 0, false, with_nan, {1}) == I64s{1});
  CHECK(Arg(ArgOperation::kMax, 0, true, with_nan, {1}) == I64s{3});
  CHECK(Arg(ArgOperation::kMin, -1, false, HostTensor::I64({3}, {1LL << 40, (1LL << 40) - 1, 1LL << 41}), {1}) ==
        I64s{1});
  CHECK(Arg(ArgOperation::kMax, 0, false, HostTensor::I32({2}, {-1, -2}), {1}) == I64s{0});
  std::string reason;
  CHECK_FALSE(IsSupported(ArgMinMaxDescriptor{}, {HostTensor::From<std::uint8_t>({2}, {0, 1}, DataType::kBool)},
                          {{{1}, DataType::kInt64}}, reason));
  CHECK(reason == "CpuRef's ArgMax and ArgMin take f32, i32 and i64 tensors, not bool");
}

TEST_CASE("trilu: upper and lower triangles of each matrix, k positive, negative and beyond the matrix") {
  // Two 3x4 matrices, values 1..24.
  std::vector<float> values(24);
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i + 1);
  const auto x = HostTensor::F32({2, 3, 4}, values);
  CHECK(Triangle(true, 0, x) == std::vector<float>{1, 2, 3, 4, 0, 6, 7, 8, 0, 0, 11, 12,
                                                   13, 14, 15, 16, 0, 18, 19, 20, 0, 0, 23, 24});
  CHECK(Triangle(false, 0, x) == std::vector<float>{1, 0, 0, 0, 5, 6, 0, 0, 9, 10, 11, 0,
                                                    13, 0, 0, 0, 17, 18, 0, 0, 21, 22, 23, 0});
  CHECK(Triangle(true, 2, x) == std::vector<float>{0, 0, 3, 4, 0, 0, 0, 8, 0, 0, 0, 0,
                                                   0, 0, 15, 16, 0, 0, 0, 20, 0, 0, 0, 0});
  CHECK(Triangle(false, -1, x) == std::vector<float>{0, 0, 0, 0, 5, 0, 0, 0, 9, 10, 0, 0,
                                                     0, 0, 0, 0, 17, 0, 0, 0, 21, 22, 0, 0});
  CHECK(Triangle(true, std::numeric_limits<std::int64_t>::min(), x) == values);
  CHECK(Triangle(false, std::numeric_limits<std::int64_t>::min(), x) == std::vector<float>(24, 0.0f));
  CHECK(Triangle(false, std::numeric_limits<std::int64_t>::max(), x) == values);
}

TEST_CASE("trilu: k from a run-time input overrides the descriptor's") {
  TriluDescriptor d;
  d.k = 100;  // ignored: input 1 gives k
  const auto x = HostTensor::F32({2, 2}, {1, 2, 3, 4});
  CHECK(RunOp(d, {x, HostTensor::I64({}, {1})}, {x.info})[0].As<float>() == std::vector<float>{0, 2, 0, 0});
  CHECK(RunOp(d, {x, HostTensor::I64({1}, {std::numeric_limits<std::int64_t>::max()})}, {x.info})[0].As<float>() ==
        std::vector<float>{0, 0, 0, 0});
  std::string reason;
  CHECK_FALSE(IsSupported(d, {x, HostTensor::I32({}, {1})}, {x.info}, reason));
  CHECK(reason == "k (input 1) must be one i64 value, is i32 []");
}

TEST_CASE("top_k: largest and smallest along an axis, ties by position, NaN largest, i64 too") {
  TopKDescriptor d;
  d.axis = 1;
  d.k = 3;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto x = HostTensor::F32({2, 5}, {3, 1, 3, nan, 0, 5, 4, 4, 9, -1});
  const auto largest = RunOp(d, {x}, {{{2, 3}, DataType::kFloat32}, {{2, 3}, DataType::kInt64}});
  const auto values = largest[0].As<float>();
  CHECK(std::isnan(values[0]));
  CHECK(std::vector<float>(values.begin() + 1, values.end()) == std::vector<float>{3, 3, 9, 5, 4});
  CHECK(largest[1].As<std::int64_t>() == I64s{3, 0, 2, 3, 0, 1});
  d.largest = false;
  const auto smallest = RunOp(d, {x}, {{{2, 3}, DataType::kFloat32}, {{2, 3}, DataType::kInt64}});
  CHECK(smallest[0].As<float>() == std::vector<float>{0, 1, 3, -1, 4, 4});
  CHECK(smallest[1].As<std::int64_t>() == I64s{4, 1, 0, 4, 1, 2});
  d.axis = 0;
  d.k = 1;
  d.largest = true;
  const auto ints = RunOp(d, {HostTensor::I64({2, 2}, {7, 1LL << 40, 7, 2})}, {{{1, 2}, DataType::kInt64}, {{1, 2}, DataType::kInt64}});
  CHECK(ints[0].As<std::int64_t>() == I64s{7, 1LL << 40});
  CHECK(ints[1].As<std::int64_t>() == I64s{0, 0});
}

TEST_CASE("cum_sum: inclusive, exclusive and reverse along an axis, integers wrap") {
  CumSumDescriptor d;
  d.axis = 1;
  const auto x = HostTensor::F32({2, 3}, {1, 2, 3, 4, 5, 6});
  CHECK(RunOp(d, {x}, {x.info})[0].As<float>() == std::vector<float>{1, 3, 6, 4, 9, 15});
  d.exclusive = true;
  CHECK(RunOp(d, {x}, {x.info})[0].As<float>() == std::vector<float>{0, 1, 3, 0, 4, 9});
  d.reverse = true;
  CHECK(RunOp(d, {x}, {x.info})[0].As<float>() == std::vector<float>{5, 3, 0, 11, 6, 0});
  d = CumSumDescriptor{};
  const auto big = HostTensor::I64({2}, {std::numeric_limits<std::int64_t>::max(), 1});
  CHECK(RunOp(d, {big}, {big.info})[0].As<std::int64_t>() ==
        I64s{std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min()});
}

TEST_CASE("scatter_elements: the last duplicate wins without a reduction, add and max combine, bad indices fail the run") {
  ScatterElementsDescriptor d;
  d.axis = 1;
  const auto data = HostTensor::F32({2, 3}, {1, 2, 3, 4, 5, 6});
  const auto indices = HostTensor::I64({2, 2}, {2, 2, 0, -1});
  const auto updates = HostTensor::F32({2, 2}, {10, 20, 30, 40});
  CHECK(RunOp(d, {data, indices, updates}, {data.info})[0].As<float>() == std::vector<float>{1, 2, 20, 30, 5, 40});
  d.reduction = ScatterReduction::kAdd;
  CHECK(RunOp(d, {data, indices, updates}, {data.info})[0].As<float>() == std::vector<float>{1, 2, 33, 34, 5, 46});
  d.reduction = ScatterReduction::kMax;
  CHECK(RunOp(d, {data, HostTensor::I64({2, 2}, {0, 0, 1, 1}), HostTensor::F32({2, 2}, {0, 7, 3, 9})}, {data.info})[0]
            .As<float>() == std::vector<float>{7, 2, 3, 4, 9, 6});
  d.reduction = ScatterReduction::kNone;
  CHECK_THROWS_WITH_AS(RunOp(d, {data, HostTensor::I64({2, 2}, {0, 3, 0, 0}), updates}, {data.info}),
                       doctest::Contains("ScatterElements index 3 (element 1 of the indices) is out of range [-3, 2]"),
                       backplane::Exception);
}

TEST_CASE("gather_nd: tuples index the leading axes, slices of the rest, with and without batch axes") {
  const auto data = HostTensor::I64({2, 2, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(RunOp(GatherNdDescriptor{}, {data, HostTensor::I64({2, 2}, {0, 1, 1, -2})}, {{{2, 2}, DataType::kInt64}})[0]
            .As<std::int64_t>() == I64s{2, 3, 4, 5});
  CHECK(RunOp(GatherNdDescriptor{}, {data, HostTensor::I64({2, 3}, {1, 1, 0, 0, 0, 1})}, {{{2}, DataType::kInt64}})[0]
            .As<std::int64_t>() == I64s{6, 1});
  GatherNdDescriptor batched;
  batched.batch_dims = 1;
  CHECK(RunOp(batched, {data, HostTensor::I64({2, 1}, {1, 0})}, {{{2, 2}, DataType::kInt64}})[0].As<std::int64_t>() ==
        I64s{2, 3, 4, 5});
  CHECK_THROWS_WITH_AS(RunOp(GatherNdDescriptor{}, {data, HostTensor::I64({1, 1}, {2})}, {{{1, 2, 2}, DataType::kInt64}}),
                       doctest::Contains("GatherND index 2"), backplane::Exception);
}

TEST_CASE("cum_sum: the axis from a run-time input, and an axis out of range fails the run") {
  const auto x = HostTensor::F32({2, 2}, {1, 2, 3, 4});
  CHECK(RunOp(CumSumDescriptor{}, {x, HostTensor::I64({}, {1})}, {x.info})[0].As<float>() == std::vector<float>{1, 3, 3, 7});
  CHECK(RunOp(CumSumDescriptor{}, {x, HostTensor::I32({1}, {-2})}, {x.info})[0].As<float>() == std::vector<float>{1, 2, 4, 6});
  CHECK_THROWS_WITH_AS(RunOp(CumSumDescriptor{}, {x, HostTensor::I64({}, {2})}, {x.info}),
                       "CumSum axis 2 is out of range for [2,2]", backplane::Exception);
}
