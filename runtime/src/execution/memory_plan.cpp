#include "execution/memory_plan.hpp"

#include <algorithm>
#include <numeric>

namespace backplane::execution {

namespace {

constexpr std::size_t kAlignment = 64;
std::size_t Align(std::size_t n) { return (n + kAlignment - 1) / kAlignment * kAlignment; }
std::size_t Footprint(const TensorLifetime& tensor) { return Align(std::max<std::size_t>(tensor.size, 1)); }

// The tensors placed so far, found by lifetime: a segment tree over the tensors sorted by first
// step whose nodes hold the latest last step of the placed tensors below them, so the placed
// tensors live during a given lifetime are visited in O((k + 1) log n) for k of them (a whole
// scan of the placed tensors per tensor made planning quadratic: minutes for 100k layers).
// Refers to `tensors`, which must outlive it. Not thread-safe.
class PlacedLifetimes {
 public:
  explicit PlacedLifetimes(const std::vector<TensorLifetime>& tensors)
      : tensors_(tensors), by_first_(tensors.size()), position_(tensors.size()) {
    std::iota(by_first_.begin(), by_first_.end(), 0);
    std::stable_sort(by_first_.begin(), by_first_.end(),
                     [&](std::size_t a, std::size_t b) { return tensors[a].first < tensors[b].first; });
    for (std::size_t i = 0; i < by_first_.size(); ++i) position_[by_first_[i]] = i;
    while (leaves_ < tensors.size()) leaves_ *= 2;
    latest_.assign(2 * leaves_, 0);
  }

  void Place(std::size_t tensor) {
    std::size_t node = leaves_ + position_[tensor];
    latest_[node] = tensors_[tensor].last + 1;
    for (node /= 2; node > 0; node /= 2) latest_[node] = std::max(latest_[2 * node], latest_[2 * node + 1]);
  }

  // Calls visit(other) for every placed tensor whose lifetime overlaps `tensor`'s.
  template <typename Function>
  void ForEachOverlapping(const TensorLifetime& tensor, Function&& visit) const {
    // Only tensors that start by tensor.last can overlap: a prefix of by_first_.
    const auto starts_after = [&](std::size_t last, std::size_t other) { return last < tensors_[other].first; };
    const auto end = std::upper_bound(by_first_.begin(), by_first_.end(), tensor.last, starts_after);
    Visit(1, 0, leaves_, static_cast<std::size_t>(end - by_first_.begin()), tensor.first, visit);
  }

 private:
  // Node `node` covers by_first_[begin, begin + width); visits its placed tensors before `end`
  // that are still live at step `first`.
  template <typename Function>
  void Visit(std::size_t node, std::size_t begin, std::size_t width, std::size_t end, std::size_t first,
             Function& visit) const {
    if (begin >= end || latest_[node] <= first) return;  // latest_ is last + 1: last < first
    if (width == 1) {
      visit(by_first_[begin]);
      return;
    }
    Visit(2 * node, begin, width / 2, end, first, visit);
    Visit(2 * node + 1, begin + width / 2, width / 2, end, first, visit);
  }

  const std::vector<TensorLifetime>& tensors_;
  std::vector<std::size_t> by_first_;  // tensor indices by first step
  std::vector<std::size_t> position_;  // per tensor: its index in by_first_
  std::size_t leaves_ = 1;             // a power of two, at least the tensor count
  std::vector<std::size_t> latest_;    // per node: 1 + the latest last step placed below it, 0: none
};

}  // namespace

MemoryPlan PlanMemory(const std::vector<TensorLifetime>& tensors) {
  MemoryPlan plan;
  plan.offsets.assign(tensors.size(), 0);
  std::vector<std::size_t> order(tensors.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return tensors[a].size > tensors[b].size; });
  PlacedLifetimes placed(tensors);
  std::vector<std::pair<std::size_t, std::size_t>> busy;
  for (std::size_t index : order) {
    const TensorLifetime& tensor = tensors[index];
    const std::size_t size = Footprint(tensor);
    // Busy ranges of live-overlapping tensors, by offset.
    busy.clear();
    placed.ForEachOverlapping(tensor, [&](std::size_t other) {
      busy.emplace_back(plan.offsets[other], plan.offsets[other] + Footprint(tensors[other]));
    });
    std::sort(busy.begin(), busy.end());
    std::size_t offset = 0;
    for (const auto& [begin, end] : busy) {
      if (offset + size <= begin) break;
      offset = std::max(offset, end);
    }
    plan.offsets[index] = offset;
    plan.arena_size = std::max(plan.arena_size, offset + size);
    placed.Place(index);
  }
  return plan;
}

}  // namespace backplane::execution
