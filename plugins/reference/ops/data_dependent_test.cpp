// NonZero, Compress, Unique and NonMaxSuppression (bound-shaped outputs plus a count) against
// numpy / ONNX's reference results worked out by hand, including empty results.
#include "op_test_harness.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace {

using backplane::DataType;
using backplane::TensorInfo;
using backplane::TensorShape;
using backplane::reference::testing::HostTensor;
using backplane::reference::testing::RunOp;

const TensorInfo kCount{TensorShape{1}, DataType::kInt64};
using I64s = std::vector<std::int64_t>;

HostTensor Bools(const TensorShape& shape, const std::vector<std::uint8_t>& values) {
  return HostTensor::From(shape, values, DataType::kBool);
}

}  // namespace

TEST_CASE("non zero: the indices of non-zero elements in C order, padded, with their count") {
  const auto out = RunOp(backplane::NonZeroDescriptor{}, {HostTensor::I32({2, 2}, {1, 0, 1, 1})},
                         {{{2, 4}, DataType::kInt64}, kCount});
  CHECK(out[1].As<std::int64_t>() == I64s{3});
  CHECK(out[0].As<std::int64_t>() == I64s{0, 1, 1, 0,  /* columns 0..2 valid */ 0, 0, 1, 0});
  const auto none = RunOp(backplane::NonZeroDescriptor{}, {Bools({3}, {0, 0, 0})}, {{{1, 3}, DataType::kInt64}, kCount});
  CHECK(none[1].As<std::int64_t>() == I64s{0});
  const auto with_nan = RunOp(backplane::NonZeroDescriptor{}, {HostTensor::F32({3}, {-0.0f, std::nanf(""), 2.0f})},
                         {{{1, 3}, DataType::kInt64}, kCount});
  CHECK(with_nan[1].As<std::int64_t>() == I64s{2});
  CHECK(with_nan[0].As<std::int64_t>() == I64s{1, 2, 0});
}

TEST_CASE("compress: slices along the axis where the condition holds, and the flattened form") {
  backplane::CompressDescriptor along;
  along.has_axis = true;
  along.axis = -1;
  // [[1, 2], [3, 4], [5, 6]] with condition [0, 1] along axis 1: [[2], [4], [6]]
  const auto out = RunOp(along, {HostTensor::F32({3, 2}, {1, 2, 3, 4, 5, 6}), Bools({2}, {0, 1})},
                         {{{3, 2}, DataType::kFloat32}, kCount});
  CHECK(out[1].As<std::int64_t>() == I64s{1});
  CHECK(out[0].As<float>() == std::vector<float>{2, 0, 4, 0, 6, 0});
  // Flattened, a condition shorter than the input: entries past it select nothing.
  const auto flat = RunOp(backplane::CompressDescriptor{}, {HostTensor::I64({2, 2}, {7, 8, 9, 10}), Bools({3}, {1, 0, 1})},
                          {{{3}, DataType::kInt64}, kCount});
  CHECK(flat[1].As<std::int64_t>() == I64s{2});
  CHECK(flat[0].As<std::int64_t>() == I64s{7, 9, 0});
  const auto none = RunOp(along, {HostTensor::F32({1, 2}, {1, 2}), Bools({2}, {0, 0})}, {{{1, 2}, DataType::kFloat32}, kCount});
  CHECK(none[1].As<std::int64_t>() == I64s{0});
}

TEST_CASE("unique: sorted and in order of first occurrence, flattened and along an axis") {
  const std::vector<TensorInfo> flat_outputs{{{6}, DataType::kFloat32}, {{6}, DataType::kInt64}, {{6}, DataType::kInt64},
                                             {{6}, DataType::kInt64}, kCount};
  const auto x = HostTensor::F32({6}, {2, 1, 1, 3, 4, 3});
  backplane::UniqueDescriptor unsorted;
  unsorted.sorted = false;
  // ONNX's example: y [2, 1, 3, 4], indices [0, 1, 3, 4], inverse [0, 1, 1, 2, 3, 2], counts [1, 2, 2, 1]
  const auto first = RunOp(unsorted, {x}, flat_outputs);
  CHECK(first[4].As<std::int64_t>() == I64s{4});
  CHECK(first[0].As<float>() == std::vector<float>{2, 1, 3, 4, 0, 0});
  CHECK(first[1].As<std::int64_t>() == I64s{0, 1, 3, 4, 0, 0});
  CHECK(first[2].As<std::int64_t>() == I64s{0, 1, 1, 2, 3, 2});
  CHECK(first[3].As<std::int64_t>() == I64s{1, 2, 2, 1, 0, 0});
  const auto sorted = RunOp(backplane::UniqueDescriptor{}, {x}, flat_outputs);
  CHECK(sorted[0].As<float>() == std::vector<float>{1, 2, 3, 4, 0, 0});
  CHECK(sorted[1].As<std::int64_t>() == I64s{1, 0, 3, 4, 0, 0});
  CHECK(sorted[2].As<std::int64_t>() == I64s{1, 0, 0, 2, 3, 2});
  CHECK(sorted[3].As<std::int64_t>() == I64s{2, 1, 2, 1, 0, 0});
  // Along axis 0 of [[1, 0, 0], [1, 0, 0], [2, 3, 4]]: rows [1, 0, 0] and [2, 3, 4].
  backplane::UniqueDescriptor rows;
  rows.has_axis = true;
  const TensorInfo per_row{{3}, DataType::kInt64};
  const auto by_row = RunOp(rows, {HostTensor::I32({3, 3}, {1, 0, 0, 1, 0, 0, 2, 3, 4})},
                            {{{3, 3}, DataType::kInt32}, per_row, per_row, per_row, kCount});
  CHECK(by_row[4].As<std::int64_t>() == I64s{2});
  CHECK(by_row[0].As<std::int32_t>() == std::vector<std::int32_t>{1, 0, 0, 2, 3, 4, 0, 0, 0});
  CHECK(by_row[2].As<std::int64_t>() == I64s{0, 0, 1});
  CHECK(by_row[3].As<std::int64_t>() == I64s{2, 1, 0});
}

TEST_CASE("unique: f16 by value, -0 equal to 0, the first occurrence kept") {
  // 1, -0, 0, 1 as f16 bits: two distinct values, -0 (first) and 1.
  const auto x = HostTensor::From(TensorShape{4}, std::vector<std::uint16_t>{0x3C00, 0x8000, 0x0000, 0x3C00}, DataType::kFloat16);
  const TensorInfo per{{4}, DataType::kInt64};
  const auto out = RunOp(backplane::UniqueDescriptor{}, {x}, {{{4}, DataType::kFloat16}, per, per, per, kCount});
  CHECK(out[4].As<std::int64_t>() == I64s{2});
  CHECK(out[0].As<std::uint16_t>() == std::vector<std::uint16_t>{0x8000, 0x3C00, 0, 0});
  CHECK(out[2].As<std::int64_t>() == I64s{1, 0, 0, 1});
  CHECK(out[3].As<std::int64_t>() == I64s{2, 2, 0, 0});
}

TEST_CASE("non max suppression: suppression by IoU and score, limits, center boxes and no result") {
  const auto boxes = HostTensor::F32({1, 6, 4}, {0, 0, 1, 1, 0, 0.1f, 1, 1.1f, 0, -0.1f, 1, 0.9f,
                                                 0, 10, 1, 11, 0, 10.1f, 1, 11.1f, 0, 100, 1, 101});
  const auto scores = HostTensor::F32({1, 1, 6}, {0.9f, 0.75f, 0.6f, 0.95f, 0.5f, 0.3f});
  const auto max3 = HostTensor::I64({1}, {3});
  const auto iou = HostTensor::F32({1}, {0.5f});
  const std::vector<TensorInfo> outputs{{{6, 3}, DataType::kInt64}, kCount};
  const auto out = RunOp(backplane::NonMaxSuppressionDescriptor{}, {boxes, scores, max3, iou, HostTensor::F32({1}, {0.0f})}, outputs);
  CHECK(out[1].As<std::int64_t>() == I64s{3});
  const I64s rows = out[0].As<std::int64_t>();
  CHECK(I64s(rows.begin(), rows.begin() + 9) == I64s{0, 0, 3, 0, 0, 0, 0, 0, 5});
  // score_threshold 0.4 drops box 5.
  const auto scored = RunOp(backplane::NonMaxSuppressionDescriptor{}, {boxes, scores, max3, iou, HostTensor::F32({1}, {0.4f})}, outputs);
  CHECK(scored[1].As<std::int64_t>() == I64s{2});
  // Without max_output_boxes_per_class nothing is selected (ONNX's default 0).
  const auto none = RunOp(backplane::NonMaxSuppressionDescriptor{}, {boxes, scores}, outputs);
  CHECK(none[1].As<std::int64_t>() == I64s{0});
  // The same boxes as centers: [x_center, y_center, width, height].
  backplane::NonMaxSuppressionDescriptor center;
  center.center_point_box = true;
  const auto centers = HostTensor::F32({1, 6, 4}, {0.5f, 0.5f, 1, 1, 0.5f, 0.6f, 1, 1, 0.5f, 0.4f, 1, 1,
                                                   0.5f, 10.5f, 1, 1, 0.5f, 10.6f, 1, 1, 0.5f, 100.5f, 1, 1});
  const auto by_center = RunOp(center, {centers, scores, max3, iou, HostTensor::F32({1}, {0.0f})}, outputs);
  CHECK(by_center[1].As<std::int64_t>() == I64s{3});
  CHECK(by_center[0].As<std::int64_t>() == rows);
}
