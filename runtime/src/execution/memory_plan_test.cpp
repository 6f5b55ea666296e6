#include "execution/memory_plan.hpp"

#include <doctest/doctest.h>

#include <ctime>

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

// Issue 41: planning looked at every tensor placed before each one, so a chain of 100k layers
// took minutes to load; it now visits only the placed tensors live at the same time.
TEST_CASE("memory plan: a chain of 200k tensors plans in well under a second, into two blocks and one") {
  const std::size_t count = 200000;
  std::vector<TensorLifetime> chain;
  for (std::size_t i = 0; i < count; ++i) chain.push_back({1000, i, i + 1});  // step i writes, i + 1 reads
  chain.push_back({64, 0, count});  // and one tensor live throughout
  // Processor time (std::clock), not wall time: a loaded machine made the wall time 9.5 s.
  const std::clock_t start = std::clock();
  const auto plan = PlanMemory(chain);
  const double seconds = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
  CHECK(seconds < 5.0);  // about 0.1 s; the quadratic plan took half a minute
  CHECK(plan.arena_size == 2 * 1024 + 64);
  for (std::size_t i = 0; i + 1 < count; ++i) {
    if (plan.offsets[i] == plan.offsets[i + 1]) FAIL("tensors " << i << " and " << i + 1 << " share memory");
  }
}

TEST_CASE("memory plan: nothing to plan") {
  const auto plan = PlanMemory({});
  CHECK(plan.arena_size == 0);
}

}  // namespace backplane::execution
