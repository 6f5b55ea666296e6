// backend/data_dependent.hpp: Unique's grouping (numpy.unique's results, NaN last and equal) and
// the slices an optional axis selects.
#include <backplane/backend/data_dependent.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace {
using backplane::TensorShape;
using backplane::backend::CompareUniqueElements;
using backplane::backend::ExtentsOfSlices;
using backplane::backend::GroupUniqueSlices;
using I64s = std::vector<std::int64_t>;
}  // namespace

TEST_CASE("data-dependent ops: Unique groups as numpy.unique, sorted or by first occurrence") {
  const float nan = std::nanf("");
  const std::vector<float> x{3, nan, 1, 3, nan, 2};
  const auto compare = [&](std::int64_t a, std::int64_t b) {
    return CompareUniqueElements(x[static_cast<std::size_t>(a)], x[static_cast<std::size_t>(b)]);
  };
  // numpy.unique([3, nan, 1, 3, nan, 2], return_index=True, return_inverse=True, return_counts=True)
  const auto sorted = GroupUniqueSlices(6, true, compare);
  CHECK(sorted.first == I64s{2, 5, 0, 1});  // 1, 2, 3, nan
  CHECK(sorted.counts == I64s{1, 1, 2, 2});
  CHECK(sorted.inverse == I64s{2, 3, 0, 2, 3, 1});
  const auto by_first = GroupUniqueSlices(6, false, compare);
  CHECK(by_first.first == I64s{0, 1, 2, 5});  // 3, nan, 1, 2
  CHECK(by_first.counts == I64s{2, 2, 1, 1});
  CHECK(by_first.inverse == I64s{0, 1, 2, 0, 1, 3});
  const auto none = GroupUniqueSlices(0, true, compare);
  CHECK(none.first.empty());
  CHECK(none.inverse.empty());
}

TEST_CASE("data-dependent ops: the slices along an axis, or the flattened elements") {
  const auto along = ExtentsOfSlices(TensorShape{2, 3, 4}, true, -2);
  CHECK(along.outer == 2);
  CHECK(along.length == 3);
  CHECK(along.inner == 4);
  const auto flat = ExtentsOfSlices(TensorShape{2, 3, 4}, false, 0);
  CHECK(flat.outer == 1);
  CHECK(flat.length == 24);
  CHECK(flat.inner == 1);
}
