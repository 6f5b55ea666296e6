#include "execution/memory_plan.hpp"

#include <doctest/doctest.h>

namespace backplane::execution {

TEST_CASE("memory plan: disjoint lifetimes share memory, overlapping ones do not") {
  // a: steps 0-1, b: 1-2, c: 2-3. a and c never live together.
  const auto plan = PlanMemory({{1000, 0, 1}, {1000, 1, 2}, {1000, 2, 3}});
  REQUIRE(plan.offsets.size() == 3);
  CHECK(plan.offsets[0] != plan.offsets[1]);
  CHECK(plan.offsets[1] != plan.offsets[2]);
  CHECK(plan.offsets[0] == plan.offsets[2]);
  CHECK(plan.arena_size == 2 * 1024);  // two 64-byte aligned blocks of 1000
}

TEST_CASE("memory plan: offsets are aligned and ranges never overlap while both are live") {
  const std::vector<TensorLifetime> tensors{{100, 0, 5}, {7, 1, 2}, {300, 2, 4}, {64, 3, 3}, {1, 5, 6}, {5000, 0, 0}};
  const auto plan = PlanMemory(tensors);
  for (std::size_t i = 0; i < tensors.size(); ++i) {
    CHECK(plan.offsets[i] % 64 == 0);
    CHECK(plan.offsets[i] + tensors[i].size <= plan.arena_size);
    for (std::size_t j = i + 1; j < tensors.size(); ++j) {
      const bool live_together = tensors[i].first <= tensors[j].last && tensors[j].first <= tensors[i].last;
      const bool overlap = plan.offsets[i] < plan.offsets[j] + tensors[j].size &&
                           plan.offsets[j] < plan.offsets[i] + tensors[i].size;
      CAPTURE(i);
      CAPTURE(j);
      CHECK_FALSE((live_together && overlap));
    }
  }
}

TEST_CASE("memory plan: nothing to plan") {
  const auto plan = PlanMemory({});
  CHECK(plan.arena_size == 0);
}

}  // namespace backplane::execution
