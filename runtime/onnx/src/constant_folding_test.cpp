// The import-time evaluation of shape computations, against values worked out by hand (numpy
// semantics).
#include "constant_folding.hpp"

#include <backplane/exception.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

namespace {

using backplane::DataType;
using backplane::Exception;
using backplane::ReduceOperation;
using backplane::TensorShape;
using backplane::onnx::ConstantTensor;
namespace folding = backplane::onnx::folding;
using Ints = std::vector<std::int64_t>;

constexpr std::uint64_t kLimit = 1 << 20;

ConstantTensor I64(const TensorShape& shape, const Ints& values) { return ConstantTensor::FromInt64(shape, values); }
ConstantTensor F32(const TensorShape& shape, const std::vector<double>& values) {
  return ConstantTensor::FromDouble(shape, values, DataType::kFloat32);
}

}  // namespace

TEST_CASE("broadcasting binary ops on int64 and float") {
  const auto sum = folding::ElementwiseBinary(folding::Binary::kAdd, I64({2, 1}, {10, 20}), I64({3}, {1, 2, 3}), kLimit);
  CHECK(sum.shape() == TensorShape{2, 3});
  CHECK(sum.ToInt64() == Ints{11, 12, 13, 21, 22, 23});
  CHECK(folding::ElementwiseBinary(folding::Binary::kDiv, I64({2}, {7, -7}), I64({}, {2}), kLimit).ToInt64() == Ints{3, -3});
  CHECK(folding::ElementwiseBinary(folding::Binary::kMod, I64({2}, {7, -7}), I64({}, {3}), kLimit).ToInt64() == Ints{1, 2});
  const auto half = folding::ElementwiseBinary(folding::Binary::kMul, F32({2}, {3, 5}), F32({}, {0.5}), kLimit);
  CHECK(half.AsDoubles() == std::vector<double>{1.5, 2.5});
  const auto equal = folding::ElementwiseBinary(folding::Binary::kEqual, I64({3}, {1, -1, 3}), I64({}, {-1}), kLimit);
  CHECK(equal.type() == DataType::kBool);
  CHECK(equal.ToInt64() == Ints{0, 1, 0});
  CHECK_THROWS_AS(folding::ElementwiseBinary(folding::Binary::kAdd, I64({2}, {1, 2}), I64({3}, {1, 2, 3}), kLimit), Exception);
}

TEST_CASE("Where picks with broadcasting (the Expand pattern torch exports)") {
  // Where(shape == -1, ones, shape)
  const auto shape = I64({3}, {2, -1, 4});
  const auto mask = folding::ElementwiseBinary(folding::Binary::kEqual, shape, I64({}, {-1}), kLimit);
  const auto result = folding::Where(mask, I64({3}, {1, 1, 1}), shape, kLimit);
  CHECK(result.ToInt64() == Ints{2, 1, 4});
}

TEST_CASE("Gather, Slice, Concat, Transpose, Expand, Tile, Split") {
  const auto x = I64({2, 3}, {0, 1, 2, 3, 4, 5});
  CHECK(folding::Gather(x, I64({}, {-1}), 1, kLimit).ToInt64() == Ints{2, 5});
  CHECK(folding::Gather(x, I64({}, {-1}), 1, kLimit).shape() == TensorShape{2});
  CHECK(folding::Gather(x, I64({2}, {1, 0}), 0, kLimit).ToInt64() == Ints{3, 4, 5, 0, 1, 2});
  CHECK_THROWS_AS(folding::Gather(x, I64({}, {3}), 1, kLimit), Exception);

  const auto reversed = folding::Slice(x, {-1}, {std::numeric_limits<std::int64_t>::min()}, {1}, {-1});
  CHECK(reversed.ToInt64() == Ints{2, 1, 0, 5, 4, 3});
  CHECK(folding::Slice(x, {1}, {100}, {}, {}).ToInt64() == Ints{3, 4, 5});
  CHECK(folding::Slice(x, {0, 1}, {2, 3}, {0, 1}, {1, 2}).ToInt64() == Ints{1, 4});

  const auto joined = folding::Concat({&x, &x}, -1, kLimit);
  CHECK(joined.shape() == TensorShape{2, 6});
  CHECK(joined.ToInt64() == Ints{0, 1, 2, 0, 1, 2, 3, 4, 5, 3, 4, 5});

  CHECK(folding::Transpose(x, {1, 0}).ToInt64() == Ints{0, 3, 1, 4, 2, 5});
  CHECK(folding::Expand(I64({2, 1}, {7, 8}), {2, 2}, kLimit).ToInt64() == Ints{7, 7, 8, 8});
  CHECK(folding::Tile(I64({2}, {1, 2}), {2}, kLimit).ToInt64() == Ints{1, 2, 1, 2});

  const auto parts = folding::Split(x, 1, {1, 2});
  REQUIRE(parts.size() == 2);
  CHECK(parts[0].ToInt64() == Ints{0, 3});
  CHECK(parts[1].ToInt64() == Ints{1, 2, 4, 5});
}

TEST_CASE("Range, ConstantOfShape, Cast, Reduce and the size limit") {
  CHECK(folding::Range(I64({}, {1}), I64({}, {10}), I64({}, {3}), kLimit).ToInt64() == Ints{1, 4, 7});
  CHECK(folding::Range(I64({}, {5}), I64({}, {0}), I64({}, {-2}), kLimit).ToInt64() == Ints{5, 3, 1});
  CHECK(folding::ConstantOfShape({2, 2}, I64({1}, {9}), kLimit).ToInt64() == Ints{9, 9, 9, 9});
  // 2^40 elements: refused by the limit, not allocated.
  CHECK_THROWS_AS(folding::ConstantOfShape({1 << 20, 1 << 20}, I64({1}, {0}), kLimit), Exception);
  CHECK_THROWS_AS(folding::Range(I64({}, {0}), I64({}, {std::int64_t{1} << 50}), I64({}, {1}), kLimit), Exception);
  CHECK(folding::Cast(F32({3}, {1.9, -1.9, 3}), DataType::kInt64).ToInt64() == Ints{1, -1, 3});
  CHECK(folding::Cast(I64({2}, {2, 0}), DataType::kBool).ToInt64() == Ints{1, 0});
  const auto sum = folding::Reduce(I64({2, 3}, {0, 1, 2, 3, 4, 5}), {1}, false, ReduceOperation::kSum);
  CHECK(sum.ToInt64() == Ints{3, 12});
  CHECK(folding::Reduce(F32({2, 2}, {1, 2, 3, 4}), {}, true, ReduceOperation::kMean).AsDoubles() == std::vector<double>{2.5});
  CHECK(folding::Reduce(F32({2, 2}, {1, 5, 3, 4}), {1}, false, ReduceOperation::kMax).AsDoubles() ==
        std::vector<double>{5, 4});
  CHECK(folding::Reduce(I64({2, 2}, {1, 5, 3, 4}), {0}, false, ReduceOperation::kProd).ToInt64() == Ints{3, 20});
  // exp(1000) overflows a double: the largest value is taken out first.
  CHECK(folding::Reduce(F32({2}, {1000, 1000}), {}, false, ReduceOperation::kLogSumExp).AsDoubles()[0] ==
        doctest::Approx(1000 + std::log(2.0)));
  CHECK_THROWS_AS(folding::Reduce(I64({2, 0}, {}), {1}, false, ReduceOperation::kMax), Exception);  // -inf
}

TEST_CASE("Reshape targets: 0 copies, -1 infers") {
  CHECK(folding::ReshapeTarget({2, 3, 4}, {0, -1}) == Ints{2, 12});
  CHECK(folding::ReshapeTarget({2, 3, 4}, {4, 0, 2}) == Ints{4, 3, 2});
  CHECK_THROWS_AS(folding::ReshapeTarget({2, 3, 4}, {5, -1}), Exception);
  CHECK_THROWS_AS(folding::ReshapeTarget({2, 3, 4}, {-1, -1}), Exception);
}

TEST_CASE("f16 constants widen exactly") {
  // 1.0, -2.5, 65504 (max), 2^-24 (smallest subnormal)
  auto bytes = std::make_shared<std::vector<std::uint8_t>>(std::vector<std::uint8_t>{
      0x00, 0x3c, 0x00, 0xc1, 0xff, 0x7b, 0x01, 0x00});
  const ConstantTensor half({TensorShape{4}, DataType::kFloat16}, bytes);
  CHECK(half.AsDoubles() == std::vector<double>{1.0, -2.5, 65504.0, 5.9604644775390625e-08});
  const auto back = folding::Cast(folding::Cast(half, DataType::kFloat32), DataType::kFloat16);
  CHECK(*back.bytes() == *bytes);
}

TEST_CASE("ScatterND replaces the addressed slices, bad shapes and indices are refused") {
  // Rows 1 and -1 (= 3) of a 4x2 tensor; then single elements; then the whole tensor (k = 0).
  const auto data = F32({4, 2}, {0, 1, 2, 3, 4, 5, 6, 7});
  const auto rows = folding::ScatterND(data, I64({2, 1}, {1, -1}), F32({2, 2}, {10, 11, 12, 13}));
  CHECK(rows.shape() == TensorShape{4, 2});
  CHECK(rows.AsDoubles() == std::vector<double>{0, 1, 10, 11, 4, 5, 12, 13});
  CHECK(data.AsDoubles() == std::vector<double>{0, 1, 2, 3, 4, 5, 6, 7});  // the input is not changed
  const auto elements = folding::ScatterND(data, I64({2, 2}, {0, 1, 3, 0}), F32({2}, {-1, -2}));
  CHECK(elements.AsDoubles() == std::vector<double>{0, -1, 2, 3, 4, 5, -2, 7});
  // The same slice twice: the later update wins.
  CHECK(folding::ScatterND(data, I64({2, 1}, {2, 2}), F32({2, 2}, {8, 8, 9, 9})).AsDoubles() ==
        std::vector<double>{0, 1, 2, 3, 9, 9, 6, 7});
  CHECK_THROWS_AS(folding::ScatterND(data, I64({1, 1}, {4}), F32({1, 2}, {0, 0})), Exception);       // out of range
  CHECK_THROWS_AS(folding::ScatterND(data, I64({1, 1}, {-5}), F32({1, 2}, {0, 0})), Exception);      // out of range
  CHECK_THROWS_AS(folding::ScatterND(data, I64({1, 1}, {0}), F32({1, 3}, {0, 0, 0})), Exception);    // updates' shape
  CHECK_THROWS_AS(folding::ScatterND(data, I64({1, 3}, {0, 0, 0}), F32({1}, {0})), Exception);       // k > rank
  CHECK_THROWS_AS(folding::ScatterND(data, I64({1, 1}, {0}), I64({1, 2}, {0, 0})), Exception);       // type
}
