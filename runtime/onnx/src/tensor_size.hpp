// Overflow-checked tensor sizes: what the importer and the .npy reader compute before they
// allocate anything for a shape read from a file.
#pragma once

#include <backplane/types.hpp>

#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace backplane::onnx {

// The number of elements of `dims`, or nullopt when a dimension is negative or the product
// does not fit in 63 bits.
inline std::optional<std::uint64_t> CheckedNumElements(const std::vector<std::int64_t>& dims) {
  constexpr std::uint64_t kLimit = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
  std::uint64_t count = 1;
  for (const std::int64_t dim : dims) {
    if (dim < 0) return std::nullopt;
    const auto d = static_cast<std::uint64_t>(dim);
    if (d != 0 && count > kLimit / d) return std::nullopt;
    count *= d;
  }
  return count;
}

// The number of bytes of a dense tensor of `dims` and `type`, or nullopt as above.
inline std::optional<std::uint64_t> CheckedNumBytes(const std::vector<std::int64_t>& dims, DataType type) {
  const auto count = CheckedNumElements(dims);
  const std::uint64_t size = SizeOf(type);
  if (!count || size == 0 || *count > std::numeric_limits<std::uint64_t>::max() / 16) return std::nullopt;
  return *count * size;
}

}  // namespace backplane::onnx
