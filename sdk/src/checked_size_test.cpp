#include <backplane/checked_size.hpp>

#include <backplane/exception.hpp>

#include <doctest/doctest.h>

#include <limits>

namespace backplane {
namespace {

constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();

std::string MessageOf(void (*f)()) {
  try {
    f();
  } catch (const Exception& error) {
    CHECK(error.code() == ErrorCode::kInvalidArgument);
    return error.what();
  }
  return "no exception";
}

TEST_CASE("checked size: products and sums of dimensions that fit") {
  CHECK(TryMulDims(3, 4) == 12);
  CHECK(TryMulDims(0, kMax) == 0);
  CHECK(TryMulDims(kMax, 1) == kMax);
  CHECK(TryAddDims(kMax - 1, 1) == kMax);
  CHECK(TryNumElements({}) == 1);
  CHECK(TryNumElements({2, 3, 4}) == 24);
  CHECK(TryNumElements({2, 0, 4}) == 0);
  CHECK(TryNumBytes({2, 3}, DataType::kInt64) == 48);
  CHECK(CheckedNumBytes({1024, 1024}, DataType::kFloat32, 4u << 20, "limit", "t") == 4u << 20);
}

TEST_CASE("checked size: overflow and negative dimensions are refused") {
  CHECK_FALSE(TryMulDims(std::int64_t{1} << 32, std::int64_t{1} << 31));
  CHECK_FALSE(TryMulDims(-1, 2));
  CHECK_FALSE(TryAddDims(kMax, 1));
  CHECK_FALSE(TryAddDims(-5, 1));
  CHECK_FALSE(TryNumElements({std::int64_t{1} << 62, 4}));
  CHECK_FALSE(TryNumElements({3, -1}));
  // A zero does not hide the overflow of the other dimensions.
  CHECK_FALSE(TryNumElements({0, std::int64_t{1} << 62, std::int64_t{1} << 62}));
  // 2^62 elements fit an int64 count, but not as f32 bytes in a uint64... they do (2^64 does not).
  CHECK(TryNumBytes({std::int64_t{1} << 61}, DataType::kFloat32) == std::uint64_t{1} << 63);
  CHECK_FALSE(TryNumBytes({std::int64_t{1} << 62}, DataType::kFloat32));
}

TEST_CASE("checked size: messages name where and both operands") {
  CHECK(MessageOf([] { CheckedMulDims(std::int64_t{1} << 62, 4, "node 't' (Tile)"); }) ==
        "node 't' (Tile): 4611686018427387904 * 4 overflows a 64-bit dimension");
  CHECK(MessageOf([] { CheckedAddDims(kMax, 2, "layer 'c' (Concat)"); }) ==
        "layer 'c' (Concat): 9223372036854775807 + 2 overflows a 64-bit dimension");
  CHECK(MessageOf([] { CheckedNumElements({2, -3}, "x.npy"); }) == "x.npy: shape [2,-3] has a negative dimension");
  CHECK(MessageOf([] { CheckedNumElements({std::int64_t{1} << 40, std::int64_t{1} << 40}, "x"); }) ==
        "x: shape [1099511627776,1099511627776] has more elements than a 64-bit count holds");
  CHECK(MessageOf([] { CheckedNumBytes({1024, 1024, 1024}, DataType::kFloat32, 1u << 31, "Options::limit", "w"); }) ==
        "w: f32 [1024,1024,1024] needs 4294967296 bytes, over the limit of 2147483648 bytes (Options::limit)");
}

}  // namespace
}  // namespace backplane
