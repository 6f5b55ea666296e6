#include "execution/memory_plan.hpp"

#include <algorithm>
#include <numeric>

namespace backplane::execution {

namespace {
constexpr std::size_t kAlignment = 64;
std::size_t Align(std::size_t n) { return (n + kAlignment - 1) / kAlignment * kAlignment; }
}  // namespace

MemoryPlan PlanMemory(const std::vector<TensorLifetime>& tensors) {
  MemoryPlan plan;
  plan.offsets.assign(tensors.size(), 0);
  std::vector<std::size_t> order(tensors.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return tensors[a].size > tensors[b].size; });
  std::vector<std::size_t> placed;
  for (std::size_t index : order) {
    const TensorLifetime& tensor = tensors[index];
    const std::size_t size = Align(std::max<std::size_t>(tensor.size, 1));
    // Busy ranges of live-overlapping tensors, by offset.
    std::vector<std::pair<std::size_t, std::size_t>> busy;
    for (std::size_t other : placed) {
      const TensorLifetime& o = tensors[other];
      if (o.first <= tensor.last && tensor.first <= o.last) {
        busy.emplace_back(plan.offsets[other], plan.offsets[other] + Align(std::max<std::size_t>(o.size, 1)));
      }
    }
    std::sort(busy.begin(), busy.end());
    std::size_t offset = 0;
    for (const auto& [begin, end] : busy) {
      if (offset + size <= begin) break;
      offset = std::max(offset, end);
    }
    plan.offsets[index] = offset;
    plan.arena_size = std::max(plan.arena_size, offset + size);
    placed.push_back(index);
  }
  return plan;
}

}  // namespace backplane::execution
