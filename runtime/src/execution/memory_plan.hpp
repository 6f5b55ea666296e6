// Memory planning: intermediate tensors whose lifetimes do not overlap share arena memory.
#pragma once

#include <cstddef>
#include <vector>

namespace backplane::execution {

struct TensorLifetime {
  std::size_t size = 0;   // bytes
  std::size_t first = 0;  // index of the step that writes it
  std::size_t last = 0;   // index of the last step that reads it (>= first)
};

struct MemoryPlan {
  std::vector<std::size_t> offsets;  // per tensor, 64-byte aligned
  std::size_t arena_size = 0;
};

// Greedy best-fit by decreasing size: each tensor takes the lowest aligned offset that does
// not overlap a tensor already placed whose lifetime overlaps its own. Pure function.
MemoryPlan PlanMemory(const std::vector<TensorLifetime>& tensors);

}  // namespace backplane::execution
