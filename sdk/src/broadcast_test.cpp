#include <backplane/backend/broadcast.hpp>

#include <doctest/doctest.h>

namespace {
using backplane::TensorShape;
using namespace backplane::backend;
}  // namespace

TEST_CASE("broadcast: numpy rules, aligned at the last dimension") {
  TensorShape out;
  std::string reason;
  REQUIRE(BroadcastShapes(TensorShape({2, 1, 4}), TensorShape({3, 1}), out, reason));
  CHECK(out == TensorShape({2, 3, 4}));
  REQUIRE(BroadcastShapes(TensorShape({}), TensorShape({5}), out, reason));
  CHECK(out == TensorShape({5}));
  CHECK_FALSE(BroadcastShapes(TensorShape({2, 3}), TensorShape({4}), out, reason));
  CHECK(reason == "shapes [2,3] and [4] do not broadcast: dimension 3 against 4 (1 from the last)");

  CHECK(BroadcastsTo(TensorShape({1, 4}), TensorShape({3, 4})));
  CHECK(BroadcastsTo(TensorShape({4}), TensorShape({2, 3, 4})));
  CHECK_FALSE(BroadcastsTo(TensorShape({3, 4}), TensorShape({1, 4})));  // one direction only
  CHECK_FALSE(BroadcastsTo(TensorShape({1, 2, 3, 4}), TensorShape({2, 3, 4})));
}

TEST_CASE("broadcast: dense strides, and strides that repeat a broadcast operand") {
  CHECK(DenseStrides(TensorShape({2, 3, 4})) == std::vector<std::int64_t>{12, 4, 1});
  CHECK(DenseStrides(TensorShape({})).empty());
  CHECK(BroadcastStrides(TensorShape({3, 1}), TensorShape({2, 3, 4})) == std::vector<std::int64_t>{0, 1, 0});
  CHECK(BroadcastStrides(TensorShape({2, 3, 4}), TensorShape({2, 3, 4})) == std::vector<std::int64_t>{12, 4, 1});
}
