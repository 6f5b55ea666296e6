// ElementwiseBinary against a naive broadcast written here: every output element decomposed
// into its multi-index, each operand read at that index with its size-1 dimensions pinned
// to 0.
#include "op_test_harness.hpp"

#include <backplane/exception.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

namespace {

using backplane::BinaryOperation;
using backplane::DataType;
using backplane::ElementwiseBinaryDescriptor;
using backplane::TensorShape;
using backplane::reference::testing::HostTensor;
using backplane::reference::testing::IsSupported;
using backplane::reference::testing::RunOp;

ElementwiseBinaryDescriptor Operation(BinaryOperation operation) {
  ElementwiseBinaryDescriptor descriptor;
  descriptor.operation = operation;
  return descriptor;
}

std::vector<float> Run(BinaryOperation operation, const TensorShape& a_shape, const std::vector<float>& a,
                       const TensorShape& b_shape, const std::vector<float>& b, const TensorShape& out) {
  return RunOp(Operation(operation), {HostTensor::F32(a_shape, a), HostTensor::F32(b_shape, b)},
               {{out, DataType::kFloat32}})[0]
      .As<float>();
}

// Element of `values` (shape `shape`) that output multi-index `index` reads under numpy rules.
float At(const std::vector<float>& values, const TensorShape& shape, const std::vector<std::int64_t>& index) {
  const std::size_t lead = index.size() - shape.Rank();
  std::int64_t flat = 0;
  for (std::size_t d = 0; d < shape.Rank(); ++d) {
    flat = flat * shape[d] + (shape[d] == 1 ? 0 : index[lead + d]);
  }
  return values[static_cast<std::size_t>(flat)];
}

std::vector<float> Naive(const std::function<float(float, float)>& op, const TensorShape& a_shape,
                         const std::vector<float>& a, const TensorShape& b_shape, const std::vector<float>& b,
                         const TensorShape& out) {
  std::vector<float> result(static_cast<std::size_t>(out.NumElements()));
  for (std::int64_t flat = 0; flat < out.NumElements(); ++flat) {
    std::vector<std::int64_t> index(out.Rank());
    std::int64_t rest = flat;
    for (std::size_t d = out.Rank(); d-- > 0;) {
      index[d] = rest % out[d];
      rest /= out[d];
    }
    result[static_cast<std::size_t>(flat)] = op(At(a, a_shape, index), At(b, b_shape, index));
  }
  return result;
}

std::vector<float> Ramp(std::int64_t count, float start, float step) {
  std::vector<float> values(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = start + step * static_cast<float>(i);
  return values;
}

// Runs every operation on (a, b) and compares with the naive broadcast.
void CheckAllOperations(const TensorShape& a_shape, const TensorShape& b_shape, const TensorShape& out) {
  const auto a = Ramp(a_shape.NumElements(), -3.25f, 0.5f);
  const auto b = Ramp(b_shape.NumElements(), 0.75f, 0.25f);  // positive: pow and div stay finite
  const std::pair<BinaryOperation, std::function<float(float, float)>> cases[] = {
      {BinaryOperation::kAdd, [](float x, float y) { return x + y; }},
      {BinaryOperation::kSub, [](float x, float y) { return x - y; }},
      {BinaryOperation::kMul, [](float x, float y) { return x * y; }},
      {BinaryOperation::kDiv, [](float x, float y) { return x / y; }},
      {BinaryOperation::kMax, [](float x, float y) { return x > y ? x : y; }},
      {BinaryOperation::kMin, [](float x, float y) { return x < y ? x : y; }},
      {BinaryOperation::kPow, [](float x, float y) { return std::pow(x, y); }},
  };
  for (const auto& [operation, op] : cases) {
    CAPTURE(static_cast<int>(operation));
    const auto actual = Run(operation, a_shape, a, b_shape, b, out);
    const auto expected = Naive(op, a_shape, a, b_shape, b, out);
    REQUIRE(actual.size() == expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i) {
      CAPTURE(i);
      if (std::isnan(expected[i])) {
        CHECK(std::isnan(actual[i]));
      } else {
        CHECK(actual[i] == expected[i]);
      }
    }
  }
}

}  // namespace

TEST_CASE("elementwise_binary: equal shapes by hand") {
  CHECK(Run(BinaryOperation::kAdd, {2, 2}, {1, 2, 3, 4}, {2, 2}, {10, 20, 30, 40}, {2, 2}) ==
        std::vector<float>{11, 22, 33, 44});
  CHECK(Run(BinaryOperation::kSub, {3}, {1, 2, 3}, {3}, {3, 2, 1}, {3}) == std::vector<float>{-2, 0, 2});
  CHECK(Run(BinaryOperation::kMul, {3}, {1, 2, 3}, {3}, {-1, 0.5f, 4}, {3}) == std::vector<float>{-1, 1, 12});
  CHECK(Run(BinaryOperation::kDiv, {3}, {1, 2, 3}, {3}, {4, -8, 0}, {3}) ==
        std::vector<float>{0.25f, -0.25f, std::numeric_limits<float>::infinity()});
  CHECK(Run(BinaryOperation::kMax, {3}, {1, 5, -3}, {3}, {2, 4, -4}, {3}) == std::vector<float>{2, 5, -3});
  CHECK(Run(BinaryOperation::kMin, {3}, {1, 5, -3}, {3}, {2, 4, -4}, {3}) == std::vector<float>{1, 4, -4});
  CHECK(Run(BinaryOperation::kPow, {4}, {2, 9, 4, -2}, {4}, {10, 0.5f, -1, 3}, {4}) ==
        std::vector<float>{1024, 3, 0.25f, -8});
}

TEST_CASE("elementwise_binary: [3,1,5] x [4,1] broadcasts to [3,4,5]") {
  const auto a = Ramp(15, 0, 1);  // a[i, 0, k] = 5i + k
  const auto b = Ramp(4, 100, 100);  // b[j, 0] = 100 (j + 1)
  const auto y = Run(BinaryOperation::kAdd, {3, 1, 5}, a, {4, 1}, b, {3, 4, 5});
  REQUIRE(y.size() == 60);
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 4; ++j) {
      for (int k = 0; k < 5; ++k) {
        CAPTURE(i);
        CAPTURE(j);
        CAPTURE(k);
        CHECK(y[static_cast<std::size_t>((i * 4 + j) * 5 + k)] == static_cast<float>(5 * i + k + 100 * (j + 1)));
      }
    }
  }
  CheckAllOperations({3, 1, 5}, {4, 1}, {3, 4, 5});
  CheckAllOperations({4, 1}, {3, 1, 5}, {3, 4, 5});
}

TEST_CASE("elementwise_binary: scalar operands on either side, rank 0 and [1]") {
  CHECK(Run(BinaryOperation::kSub, {2, 3}, {1, 2, 3, 4, 5, 6}, {}, {1}, {2, 3}) ==
        std::vector<float>{0, 1, 2, 3, 4, 5});
  CHECK(Run(BinaryOperation::kDiv, {1}, {12}, {2, 2}, {1, 2, 3, 4}, {2, 2}) == std::vector<float>{12, 6, 4, 3});
  CHECK(Run(BinaryOperation::kMul, {}, {3}, {}, {4}, {}) == std::vector<float>{12});
  CheckAllOperations({2, 3, 7}, {}, {2, 3, 7});
  CheckAllOperations({1}, {5, 3}, {5, 3});
}

TEST_CASE("elementwise_binary: innermost broadcasts (per-channel bias, per-row vector)") {
  CheckAllOperations({2, 3, 4, 5}, {3, 1, 1}, {2, 3, 4, 5});
  CheckAllOperations({2, 3, 4, 5}, {1, 3, 1, 1}, {2, 3, 4, 5});
  CheckAllOperations({5}, {2, 3, 5}, {2, 3, 5});
  CheckAllOperations({2, 3, 5}, {2, 3, 1}, {2, 3, 5});
}

TEST_CASE("elementwise_binary: odd shapes and both sides broadcasting") {
  CheckAllOperations({7, 1, 3}, {1, 5, 1}, {7, 5, 3});
  CheckAllOperations({1, 4, 1, 3}, {2, 1, 5, 1}, {2, 4, 5, 3});
  CheckAllOperations({13}, {13}, {13});
  CheckAllOperations({3, 1}, {1, 1}, {3, 1});
}

TEST_CASE("elementwise_binary: an empty output runs and writes nothing") {
  CHECK(Run(BinaryOperation::kAdd, {0, 3}, {}, {3}, {1, 2, 3}, {0, 3}).empty());
}

TEST_CASE("elementwise_binary: max and min propagate NaN from either side") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (const auto operation : {BinaryOperation::kMax, BinaryOperation::kMin}) {
    const auto y = Run(operation, {3}, {nan, 1, 2}, {3}, {1, nan, 2}, {3});
    CHECK(std::isnan(y[0]));
    CHECK(std::isnan(y[1]));
    CHECK(y[2] == 2);
  }
}

TEST_CASE("elementwise_binary: comparisons of f32 (NaN compares false), i32, i64 and bool give bool, with broadcasting") {
  using Bytes = std::vector<std::uint8_t>;
  const auto compare = [](BinaryOperation operation, const HostTensor& a, const HostTensor& b, const TensorShape& out) {
    return RunOp(Operation(operation), {a, b}, {{out, DataType::kBool}})[0].As<std::uint8_t>();
  };
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto fa = HostTensor::F32({4}, {1, 2, nan, 4}), fb = HostTensor::F32({4}, {1, 3, nan, 3});
  CHECK(compare(BinaryOperation::kEqual, fa, fb, {4}) == Bytes{1, 0, 0, 0});
  CHECK(compare(BinaryOperation::kLess, fa, fb, {4}) == Bytes{0, 1, 0, 0});
  CHECK(compare(BinaryOperation::kLessOrEqual, fa, fb, {4}) == Bytes{1, 1, 0, 0});
  CHECK(compare(BinaryOperation::kGreater, fa, fb, {4}) == Bytes{0, 0, 0, 1});
  CHECK(compare(BinaryOperation::kGreaterOrEqual, fa, fb, {4}) == Bytes{1, 0, 0, 1});
  // int64 token ids against a broadcast padding id; i32 beyond f32's exact integers.
  CHECK(compare(BinaryOperation::kEqual, HostTensor::I64({2, 3}, {5, 0, 7, 0, 0, 9}), HostTensor::I64({}, {0}), {2, 3}) ==
        Bytes{0, 1, 0, 1, 1, 0});
  CHECK(compare(BinaryOperation::kLess, HostTensor::I32({2}, {16777217, -3}), HostTensor::I32({2}, {16777216, -2}), {2}) ==
        Bytes{0, 1});
  const auto t = HostTensor::From<std::uint8_t>({4}, {0, 0, 1, 1}, DataType::kBool);
  const auto u = HostTensor::From<std::uint8_t>({4}, {0, 1, 0, 1}, DataType::kBool);
  CHECK(compare(BinaryOperation::kEqual, t, u, {4}) == Bytes{1, 0, 0, 1});
  CHECK(compare(BinaryOperation::kAnd, t, u, {4}) == Bytes{0, 0, 0, 1});
  CHECK(compare(BinaryOperation::kOr, t, u, {4}) == Bytes{0, 1, 1, 1});
  CHECK(compare(BinaryOperation::kXor, t, u, {4}) == Bytes{0, 1, 1, 0});
  CHECK(compare(BinaryOperation::kAnd, t, HostTensor::From<std::uint8_t>({1}, {1}, DataType::kBool), {4}) == Bytes{0, 0, 1, 1});

  std::string reason;
  CHECK_FALSE(IsSupported(Operation(BinaryOperation::kLess), {t, u}, {{{4}, DataType::kBool}}, reason));
  CHECK(reason == "CpuRef compares bool inputs for equality only (Equal), not by order");
}

// f16 and bf16 operands as their bits (numpy's float16 .view(uint16) gives the expected ones).
HostTensor F16(const TensorShape& shape, const std::vector<std::uint16_t>& bits) {
  return HostTensor::From(shape, bits, DataType::kFloat16);
}
HostTensor BF16(const TensorShape& shape, const std::vector<std::uint16_t>& bits) {
  return HostTensor::From(shape, bits, DataType::kBFloat16);
}
std::vector<std::uint16_t> RunBits(BinaryOperation operation, const HostTensor& a, const HostTensor& b) {
  return RunOp(Operation(operation), {a, b}, {{a.info.shape, a.info.type}})[0].As<std::uint16_t>();
}

TEST_CASE("elementwise_binary: f16 and bf16 compute in float and round each result once to nearest even") {
  using Bits = std::vector<std::uint16_t>;
  // f16: 1 = 0x3c00, 2 = 0x4000, 0.5 = 0x3800, -1 = 0xbc00, 3 = 0x4200, NaN = 0x7e00.
  CHECK(RunBits(BinaryOperation::kMax, F16({3}, {0x3c00, 0x7e00, 0xbc00}), F16({3}, {0x4000, 0x3c00, 0x3800})) ==
        Bits{0x4000, 0x7e00, 0x3800});
  CHECK(RunBits(BinaryOperation::kMin, F16({3}, {0x3c00, 0x3c00, 0xbc00}), F16({3}, {0x4000, 0x7e00, 0x3800})) ==
        Bits{0x3c00, 0x7e00, 0xbc00});
  // 2048 + 1 = 2049 ties to 2048 (0x6800), 2048 + 3 = 2051 ties to 2052 (0x6802): numpy float16.
  CHECK(RunBits(BinaryOperation::kAdd, F16({2}, {0x6800, 0x6800}), F16({}, {0x3c00})) == Bits{0x6800, 0x6800});
  CHECK(RunBits(BinaryOperation::kAdd, F16({1}, {0x6800}), F16({1}, {0x4200})) == Bits{0x6802});
  // Python's %: mod(-4, 3) = 2 (0x4000), mod(5, -3) = -1 (0xbc00).
  CHECK(RunBits(BinaryOperation::kMod, F16({2}, {0xc400, 0x4500}), F16({2}, {0x4200, 0xc200})) ==
        Bits{0x4000, 0xbc00});
  // bf16: 3 * 3 = 9 (0x4110); 256 + 1 ties to 256 (0x4380).
  CHECK(RunBits(BinaryOperation::kMul, BF16({1}, {0x4040}), BF16({1}, {0x4040})) == Bits{0x4110});
  CHECK(RunBits(BinaryOperation::kAdd, BF16({1}, {0x4380}), BF16({1}, {0x3f80})) == Bits{0x4380});
  const auto less = RunOp(Operation(BinaryOperation::kLess), {F16({3}, {0x3c00, 0x7e00, 0x4000}), F16({3}, {0x4000, 0x3c00, 0x3c00})},
                          {{{3}, DataType::kBool}})[0]
                        .As<std::uint8_t>();
  CHECK(less == std::vector<std::uint8_t>{1, 0, 0});
}

TEST_CASE("elementwise_binary: Pow gives the base's type for an exponent of any number type") {
  const auto pow = [](const HostTensor& base, const HostTensor& exponent) {
    return RunOp(Operation(BinaryOperation::kPow), {base, exponent}, {{base.info.shape, base.info.type}})[0];
  };
  // Integer by float: computed in double, truncated toward zero (numpy's astype): 3 ** 0.5 = 1.73.
  CHECK(pow(HostTensor::I32({4}, {4, 2, 10, 3}), HostTensor::F32({4}, {0.5f, 3, -1, 0.5f})).As<std::int32_t>() ==
        std::vector<std::int32_t>{2, 8, 0, 1});
  // Integers: exact and wrapping, as numpy.power: 3 ** 65 mod 2^64, 2 ** 62; negative powers truncate.
  CHECK(pow(HostTensor::I64({5}, {3, 2, -1, 2, 1}), HostTensor::I64({5}, {65, 62, 3, -1, -7})).As<std::int64_t>() ==
        std::vector<std::int64_t>{7752514261426648835LL, 4611686018427387904LL, -1, 0, 1});
  CHECK(pow(HostTensor::From<std::uint8_t>({2}, {2, 3}, DataType::kUInt8),
            HostTensor::I32({2}, {9, 5})).As<std::uint8_t>() == std::vector<std::uint8_t>{0, 243});
  // Float by integer, with broadcasting.
  CHECK(pow(HostTensor::F32({2}, {2, 4}), HostTensor::I64({}, {-1})).As<float>() == std::vector<float>{0.5f, 0.25f});
  CHECK(RunBits(BinaryOperation::kPow, F16({2}, {0x4000, 0x4200}), F16({2}, {0x4000, 0x3c00})) ==
        std::vector<std::uint16_t>{0x4400, 0x4200});  // 2 ** 2 = 4, 3 ** 1 = 3

  std::string reason;
  const auto flag = HostTensor::From<std::uint8_t>({1}, {1}, DataType::kBool);
  CHECK_FALSE(IsSupported(Operation(BinaryOperation::kPow), {HostTensor::F32({1}, {2}), flag},
                          {{{1}, DataType::kFloat32}}, reason));
  CHECK(reason == "Pow takes a number exponent, not bool");
}

TEST_CASE("elementwise_binary: i32 and i64 arithmetic wraps, divides toward zero, and refuses a zero divisor") {
  const auto i64 = [](BinaryOperation operation, std::vector<std::int64_t> a, std::vector<std::int64_t> b) {
    const TensorShape shape{static_cast<std::int64_t>(a.size())};
    return RunOp(Operation(operation), {HostTensor::I64(shape, a), HostTensor::I64(shape, b)},
                 {{shape, DataType::kInt64}})[0]
        .As<std::int64_t>();
  };
  using I64s = std::vector<std::int64_t>;
  const std::int64_t lowest = std::numeric_limits<std::int64_t>::min();
  CHECK(i64(BinaryOperation::kAdd, {std::numeric_limits<std::int64_t>::max(), 2}, {1, 3}) == I64s{lowest, 5});
  CHECK(i64(BinaryOperation::kSub, {lowest, 2}, {1, 3}) == I64s{std::numeric_limits<std::int64_t>::max(), -1});
  CHECK(i64(BinaryOperation::kMul, {1LL << 40, -3}, {1 << 20, 4}) == I64s{1LL << 60, -12});
  CHECK(i64(BinaryOperation::kDiv, {7, -7, 7, lowest}, {2, 2, -2, -1}) == I64s{3, -3, -3, lowest});
  CHECK(i64(BinaryOperation::kMax, {7, -7}, {2, 2}) == I64s{7, 2});
  CHECK(i64(BinaryOperation::kMin, {7, -7}, {2, 2}) == I64s{2, -7});
  // Python's % (the divisor's sign) and C's % (the dividend's), as ONNX Mod fmod=0 and fmod=1.
  CHECK(i64(BinaryOperation::kMod, {7, -7, 7, -7, 6, lowest}, {3, 3, -3, -3, 3, -1}) == I64s{1, 2, -2, -1, 0, 0});
  CHECK(i64(BinaryOperation::kFmod, {7, -7, 7, -7, lowest}, {3, 3, -3, -3, -1}) == I64s{1, -1, 1, -1, 0});
  for (const auto operation : {BinaryOperation::kDiv, BinaryOperation::kMod, BinaryOperation::kFmod}) {
    CHECK_THROWS_WITH_AS(i64(operation, {1, 2}, {1, 0}), doctest::Contains("by zero"), backplane::Exception);
  }
  const auto i32 = RunOp(Operation(BinaryOperation::kAdd), {HostTensor::I32({2}, {16777217, -1}), HostTensor::I32({}, {1})},
                         {{{2}, DataType::kInt32}})[0]
                       .As<std::int32_t>();
  CHECK(i32 == std::vector<std::int32_t>{16777218, 0});
  const auto f = RunOp(Operation(BinaryOperation::kMod), {HostTensor::F32({4}, {5.5f, -5.5f, 5.5f, 6}), HostTensor::F32({4}, {2, 2, -2, 3})},
                       {{{4}, DataType::kFloat32}})[0]
                     .As<float>();
  CHECK(f == std::vector<float>{1.5f, 0.5f, -0.5f, 0});
  const auto fm = RunOp(Operation(BinaryOperation::kFmod), {HostTensor::F32({2}, {5.5f, -5.5f}), HostTensor::F32({2}, {2, 2})},
                        {{{2}, DataType::kFloat32}})[0]
                      .As<float>();
  CHECK(fm == std::vector<float>{1.5f, -1.5f});
}

TEST_CASE("elementwise_binary: bit shifts of u8 to u64, a shift by the bit width or more giving 0") {
  // numpy: np.left_shift / np.right_shift on these types, except numpy's undefined wide shifts
  // (ONNX's reference and this kernel give 0 for them).
  const auto u8 = [](BinaryOperation operation, std::vector<std::uint8_t> a, std::vector<std::uint8_t> b) {
    const TensorShape shape{static_cast<std::int64_t>(a.size())};
    return RunOp(Operation(operation),
                 {HostTensor::From(shape, a, DataType::kUInt8), HostTensor::From(TensorShape{1}, b, DataType::kUInt8)},
                 {{shape, DataType::kUInt8}})[0]
        .As<std::uint8_t>();
  };
  using U8s = std::vector<std::uint8_t>;
  CHECK(u8(BinaryOperation::kBitShiftLeft, {16, 4, 1, 255}, {2}) == U8s{64, 16, 4, 252});
  CHECK(u8(BinaryOperation::kBitShiftRight, {16, 4, 1, 255}, {2}) == U8s{4, 1, 0, 63});
  CHECK(u8(BinaryOperation::kBitShiftLeft, {1, 255}, {8}) == U8s{0, 0});
  CHECK(u8(BinaryOperation::kBitShiftRight, {1, 255}, {200}) == U8s{0, 0});
  const auto u64 = RunOp(Operation(BinaryOperation::kBitShiftLeft),
                         {HostTensor::From<std::uint64_t>({3}, {1, 3, 1}, DataType::kUInt64),
                          HostTensor::From<std::uint64_t>({3}, {63, 62, 64}, DataType::kUInt64)},
                         {{{3}, DataType::kUInt64}})[0]
                       .As<std::uint64_t>();
  CHECK(u64 == std::vector<std::uint64_t>{1ULL << 63, 3ULL << 62, 0});
  const auto u16 = RunOp(Operation(BinaryOperation::kBitShiftRight),
                         {HostTensor::From<std::uint16_t>({2}, {0x8000, 0xFFFF}, DataType::kUInt16),
                          HostTensor::From<std::uint16_t>({2}, {15, 16}, DataType::kUInt16)},
                         {{{2}, DataType::kUInt16}})[0]
                       .As<std::uint16_t>();
  CHECK(u16 == std::vector<std::uint16_t>{1, 0});

  std::string reason;
  CHECK_FALSE(IsSupported(Operation(BinaryOperation::kBitShiftLeft), {HostTensor::I32({1}, {1}), HostTensor::I32({1}, {1})},
                          {{{1}, DataType::kInt32}}, reason));
  CHECK(reason == "a bit shift takes unsigned integers (u8, u16, u32, u64), not i32");
}

TEST_CASE("elementwise_binary: support rejects shapes that do not broadcast and a wrong output shape") {
  std::string reason;
  const auto add = Operation(BinaryOperation::kAdd);
  CHECK_FALSE(IsSupported(add, {HostTensor::F32({2, 3}, Ramp(6, 0, 1)), HostTensor::F32({4}, Ramp(4, 0, 1))},
                          {{{2, 4}, DataType::kFloat32}}, reason));
  CHECK(reason == "shapes [2,3] and [4] do not broadcast: dimension 3 against 4 (1 from the last)");

  CHECK_FALSE(IsSupported(add, {HostTensor::F32({3, 1, 5}, Ramp(15, 0, 1)), HostTensor::F32({4, 1}, Ramp(4, 0, 1))},
                          {{{3, 4, 1}, DataType::kFloat32}}, reason));
  CHECK(reason ==
        "output 0 is f32 [3,4,1], the op gives f32 [3,4,5]");

  CHECK_FALSE(IsSupported(add, {HostTensor::F32({2}, {1, 2}), HostTensor::I64({2}, {1, 2})},
                          {{{2}, DataType::kFloat32}}, reason));
  CHECK(reason == "inputs have different types: f32 and i64");

  CHECK_FALSE(IsSupported(add, {HostTensor::F32({2}, {1, 2})}, {{{2}, DataType::kFloat32}}, reason));
  CHECK(reason == "takes 2 inputs, has 1");

  CHECK_FALSE(IsSupported(Operation(static_cast<BinaryOperation>(42)),
                          {HostTensor::F32({2}, {1, 2}), HostTensor::F32({2}, {1, 2})}, {{{2}, DataType::kFloat32}},
                          reason));
  CHECK(reason == "unknown binary operation 42");
}
