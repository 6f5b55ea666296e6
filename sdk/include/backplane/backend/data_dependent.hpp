// The rules the data-dependent ops (op set v2, Backend API 2.6: Compress, Unique) share between
// a backend's kernels and the ONNX importer's folding (constant_folding), so that both compute
// one result: the slices an op with an optional axis selects from, and Unique's grouping (ONNX
// Unique as numpy.unique with return_index, return_inverse and return_counts). Header-only, part
// of the author kit. Pure functions: thread-safe, never throw but std::bad_alloc.
#pragma once

#include <backplane/backend/op_geometry.hpp>
#include <backplane/element_types.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace backplane::backend {

// The extents of the slices Compress and Unique select from: around `axis` (possibly negative;
// the op schema has checked it) when `has_axis`, else the elements of the flattened shape,
// [1, element count, 1].
inline AxisExtents ExtentsOfSlices(const TensorShape& shape, bool has_axis, std::int64_t axis) {
  if (!has_axis) return {1, shape.NumElements(), 1};
  std::size_t normalized = 0;
  NormalizeAxis(axis, shape.Rank(), normalized);
  return ExtentsAroundAxis(shape, normalized);
}

// -1, 0 or 1 as number a orders before, with or after b: NaN after every number and equal to
// NaN (numpy.unique's equal_nan). f16 and bf16 compare by value (-0 equals 0).
template <typename T>
int CompareUniqueElements(T a, T b) {
  if constexpr (kIsFloat16Element<T>) {
    return CompareUniqueElements(ConvertElement<float>(a), ConvertElement<float>(b));
  } else {
    const bool a_nan = IsNanElement(a), b_nan = IsNanElement(b);
    if (a_nan || b_nan) return a_nan == b_nan ? 0 : (a_nan ? 1 : -1);
    return a < b ? -1 : (b < a ? 1 : 0);
  }
}

// The distinct slices in output order: first[k] the first occurrence of output slice k,
// counts[k] how many slices equal it; inverse[i] the output position of slice i.
struct UniqueSlices {
  std::vector<std::int64_t> first, counts, inverse;
};

// Groups slices 0 .. length-1 by compare(a, b) (-1, 0, 1: a strict weak order, slices compared
// lexicographically). sorted: the groups ascending; else in the order of their first occurrence.
template <typename Compare>
UniqueSlices GroupUniqueSlices(std::int64_t length, bool sorted, Compare compare) {
  std::vector<std::int64_t> order(static_cast<std::size_t>(length));
  std::iota(order.begin(), order.end(), std::int64_t{0});
  std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return compare(a, b) < 0; });
  // Groups in sorted order (stable: each one's first slice is its first occurrence).
  std::vector<std::int64_t> first, counts, group(order.size());
  for (std::size_t i = 0; i < order.size(); ++i) {
    if (i == 0 || compare(order[i - 1], order[i]) != 0) {
      first.push_back(order[i]);
      counts.push_back(0);
    }
    ++counts.back();
    group[static_cast<std::size_t>(order[i])] = static_cast<std::int64_t>(first.size()) - 1;
  }
  // Each group's output position.
  std::vector<std::int64_t> position(first.size());
  std::iota(position.begin(), position.end(), std::int64_t{0});
  if (!sorted) {
    std::vector<std::int64_t> by_first = position;
    std::sort(by_first.begin(), by_first.end(), [&](std::int64_t a, std::int64_t b) {
      return first[static_cast<std::size_t>(a)] < first[static_cast<std::size_t>(b)];
    });
    for (std::size_t p = 0; p < by_first.size(); ++p) position[static_cast<std::size_t>(by_first[p])] = static_cast<std::int64_t>(p);
  }
  UniqueSlices result{std::vector<std::int64_t>(first.size()), std::vector<std::int64_t>(first.size()),
                      std::vector<std::int64_t>(group.size())};
  for (std::size_t g = 0; g < first.size(); ++g) {
    const auto at = static_cast<std::size_t>(position[g]);
    result.first[at] = first[g];
    result.counts[at] = counts[g];
  }
  for (std::size_t i = 0; i < group.size(); ++i) result.inverse[i] = position[static_cast<std::size_t>(group[i])];
  return result;
}

}  // namespace backplane::backend
