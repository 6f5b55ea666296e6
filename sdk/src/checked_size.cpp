#include <backplane/checked_size.hpp>

#include <backplane/exception.hpp>

#include <limits>

namespace backplane {

namespace {

constexpr std::int64_t kMaxDim = std::numeric_limits<std::int64_t>::max();

[[noreturn]] void Overflow(std::string_view what, const std::string& detail) {
  std::string message(what);
  message += ": ";
  message += detail;
  throw Exception(ErrorCode::kInvalidArgument, message);
}

}  // namespace

std::optional<std::int64_t> TryMulDims(std::int64_t a, std::int64_t b) {
  if (a < 0 || b < 0) return std::nullopt;
  if (a != 0 && b > kMaxDim / a) return std::nullopt;
  return a * b;
}

std::optional<std::int64_t> TryAddDims(std::int64_t a, std::int64_t b) {
  if (a < 0 || b < 0 || a > kMaxDim - b) return std::nullopt;
  return a + b;
}

std::optional<std::int64_t> TryNumElements(const std::vector<std::int64_t>& dims) {
  // The product of the non-zero dimensions must fit, so a 0 cannot hide an overflow.
  std::int64_t nonzero = 1;
  bool zero = false;
  for (const std::int64_t dim : dims) {
    if (dim < 0) return std::nullopt;
    if (dim == 0) {
      zero = true;
      continue;
    }
    const auto product = TryMulDims(nonzero, dim);
    if (!product) return std::nullopt;
    nonzero = *product;
  }
  return zero ? 0 : nonzero;
}

std::optional<std::uint64_t> TryNumBytes(const std::vector<std::int64_t>& dims, DataType type) {
  const auto count = TryNumElements(dims);
  const std::uint64_t size = SizeOf(type);
  if (!count || size == 0) return std::nullopt;
  const auto n = static_cast<std::uint64_t>(*count);
  if (n > std::numeric_limits<std::uint64_t>::max() / size) return std::nullopt;
  return n * size;
}

std::int64_t CheckedMulDims(std::int64_t a, std::int64_t b, std::string_view what) {
  const auto result = TryMulDims(a, b);
  if (!result) {
    Overflow(what, std::to_string(a) + " * " + std::to_string(b) +
                       (a < 0 || b < 0 ? " has a negative dimension" : " overflows a 64-bit dimension"));
  }
  return *result;
}

std::int64_t CheckedAddDims(std::int64_t a, std::int64_t b, std::string_view what) {
  const auto result = TryAddDims(a, b);
  if (!result) {
    Overflow(what, std::to_string(a) + " + " + std::to_string(b) +
                       (a < 0 || b < 0 ? " has a negative dimension" : " overflows a 64-bit dimension"));
  }
  return *result;
}

std::int64_t CheckedNumElements(const std::vector<std::int64_t>& dims, std::string_view what) {
  const auto result = TryNumElements(dims);
  if (!result) {
    for (const std::int64_t dim : dims) {
      if (dim < 0) Overflow(what, "shape " + ToString(TensorShape(dims)) + " has a negative dimension");
    }
    Overflow(what, "shape " + ToString(TensorShape(dims)) + " has more elements than a 64-bit count holds");
  }
  return *result;
}

std::uint64_t CheckedNumBytes(const std::vector<std::int64_t>& dims, DataType type, std::string_view what) {
  CheckedNumElements(dims, what);
  const auto result = TryNumBytes(dims, type);
  if (!result) {
    Overflow(what, std::string(ToString(type)) + " " + ToString(TensorShape(dims)) +
                       " has more bytes than a 64-bit size holds");
  }
  return *result;
}

std::uint64_t CheckedNumBytes(const std::vector<std::int64_t>& dims, DataType type, std::uint64_t limit,
                              std::string_view limit_name, std::string_view what) {
  const std::uint64_t bytes = CheckedNumBytes(dims, type, what);
  if (bytes > limit) {
    Overflow(what, std::string(ToString(type)) + " " + ToString(TensorShape(dims)) + " needs " +
                       std::to_string(bytes) + " bytes, over the limit of " + std::to_string(limit) + " bytes (" +
                       std::string(limit_name) + ")");
  }
  return bytes;
}

}  // namespace backplane
