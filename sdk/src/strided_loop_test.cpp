#include <backplane/backend/broadcast.hpp>
#include <backplane/backend/strided_loop.hpp>

#include <doctest/doctest.h>

#include <array>
#include <tuple>
#include <vector>

namespace {
using backplane::TensorShape;
using namespace backplane::backend;

using Row = std::tuple<std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t>;  // out, b, length, steps

std::vector<Row> Rows(const StridedLoop<2>& loop, std::int64_t first, std::int64_t last) {
  std::vector<Row> rows;
  loop.ForEachRowIn(first, last, [&](const std::array<std::int64_t, 2>& at, std::int64_t length,
                                     const std::array<std::int64_t, 2>& steps) {
    rows.emplace_back(at[0], at[1], length, steps[0], steps[1]);
  });
  return rows;
}
}  // namespace

TEST_CASE("strided loop: merges what every operand walks as one, and splits rows into ranges") {
  // Swin's attention mask: [1, 64, 3, 49, 49] + [1, 64, 1, 49, 49] walks 64 x 3 rows of 2401,
  // the mask's row repeated across the 3 heads.
  const TensorShape out({1, 64, 3, 49, 49});
  const StridedLoop<2> loop(out.Dims(), {DenseStrides(out), BroadcastStrides(TensorShape({1, 64, 1, 49, 49}), out)});
  CHECK(loop.Dims() == std::vector<std::int64_t>{64, 3, 2401});
  CHECK(loop.RowCount() == 192);
  const auto all = Rows(loop, 0, loop.RowCount());
  REQUIRE(all.size() == 192);
  CHECK(all[4] == Row{4 * 2401, 1 * 2401, 2401, 1, 1});  // row (1, 1): mask row 1
  std::vector<Row> split = Rows(loop, 0, 77);
  const auto rest = Rows(loop, 77, 192);
  split.insert(split.end(), rest.begin(), rest.end());
  CHECK(split == all);
  CHECK(Rows(loop, 5, 5).empty());

  // A per-channel operand: rows of a scalar; a single element; an empty tensor.
  const TensorShape image({2, 3, 4, 5});
  const StridedLoop<2> bias(image.Dims(), {DenseStrides(image), BroadcastStrides(TensorShape({3, 1, 1}), image)});
  CHECK(bias.Dims() == std::vector<std::int64_t>{2, 3, 20});
  CHECK(Rows(bias, 4, 5) == std::vector<Row>{Row{80, 1, 20, 1, 0}});
  using Dims = std::vector<std::int64_t>;
  const StridedLoop<2> one(Dims{1, 1}, {Dims{1, 1}, Dims{1, 1}});
  CHECK(one.RowCount() == 1);
  CHECK(Rows(one, 0, 1).size() == 1);
  const StridedLoop<2> none(Dims{3, 0}, {Dims{0, 1}, Dims{0, 1}});
  CHECK(none.RowCount() == 0);
  CHECK(Rows(none, 0, 1).empty());
}
