// Unique (op set v2, ONNX Unique) on the number types but f16 / bf16: the distinct slices along
// the axis (or elements of the flattened input), as numpy.unique with return_index,
// return_inverse and return_counts. Slices compare lexicographically in C order; NaN sorts after
// every number and equals NaN. y, indices and counts are bound-shaped (padded past `count` with
// zeros); inverse_indices has one entry per slice; count (i64 [1]) is the number of distinct ones.
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <vector>

namespace backplane::reference {

namespace {

// -1, 0 or 1 as a orders before, with or after b (NaN last, equal to NaN).
template <typename T>
int Order(T a, T b) {
  const bool a_nan = IsNanElement(a), b_nan = IsNanElement(b);
  if (a_nan || b_nan) return a_nan == b_nan ? 0 : (a_nan ? 1 : -1);
  return a < b ? -1 : (b < a ? 1 : 0);
}

template <typename T>
class UniqueWorkload final : public backend::IWorkload {
 public:
  UniqueWorkload(backend::AxisExtents extents, bool sorted) : extents_(extents), sorted_(sorted) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const T* x = Input<T>(args, 0);
    const std::int64_t length = extents_.length, inner = extents_.inner, outer = extents_.outer;
    // Slice i's elements, in C order: x[(o * length + i) * inner + k] for o, then k.
    const auto compare = [&](std::int64_t a, std::int64_t b) {
      for (std::int64_t o = 0; o < outer; ++o) {
        for (std::int64_t k = 0; k < inner; ++k) {
          const int order = Order(x[(o * length + a) * inner + k], x[(o * length + b) * inner + k]);
          if (order != 0) return order;
        }
      }
      return 0;
    };
    std::vector<std::int64_t> order(static_cast<std::size_t>(length));
    std::iota(order.begin(), order.end(), std::int64_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::int64_t a, std::int64_t b) { return compare(a, b) < 0; });
    // Groups of equal slices in sorted order: each one's first occurrence (stable: the first of
    // the group) and size; group[i]: slice i's group.
    std::vector<std::int64_t> first, sizes, group(static_cast<std::size_t>(length));
    for (std::size_t i = 0; i < order.size(); ++i) {
      if (i == 0 || compare(order[i - 1], order[i]) != 0) {
        first.push_back(order[i]);
        sizes.push_back(0);
      }
      ++sizes.back();
      group[static_cast<std::size_t>(order[i])] = static_cast<std::int64_t>(first.size()) - 1;
    }
    // The output position of each group: sorted order, or the order of first occurrence.
    std::vector<std::int64_t> rank(first.size());
    std::iota(rank.begin(), rank.end(), std::int64_t{0});
    if (!sorted_) {
      std::vector<std::int64_t> by_first(first.size());
      std::iota(by_first.begin(), by_first.end(), std::int64_t{0});
      std::sort(by_first.begin(), by_first.end(), [&](std::int64_t a, std::int64_t b) {
        return first[static_cast<std::size_t>(a)] < first[static_cast<std::size_t>(b)];
      });
      for (std::size_t p = 0; p < by_first.size(); ++p) rank[static_cast<std::size_t>(by_first[p])] = static_cast<std::int64_t>(p);
    }
    Write(args, x, first, sizes, group, rank);
  }

 private:
  void Write(const backend::WorkloadArgs& args, const T* x, const std::vector<std::int64_t>& first,
             const std::vector<std::int64_t>& sizes, const std::vector<std::int64_t>& group,
             const std::vector<std::int64_t>& rank) const {
    const std::int64_t length = extents_.length, inner = extents_.inner, outer = extents_.outer;
    T* y = Output<T>(args, 0);
    auto* indices = Output<std::int64_t>(args, 1);
    auto* inverse = Output<std::int64_t>(args, 2);
    auto* counts = Output<std::int64_t>(args, 3);
    std::fill(y, y + outer * length * inner, T{0});
    std::fill(indices, indices + length, std::int64_t{0});
    std::fill(counts, counts + length, std::int64_t{0});
    for (std::size_t g = 0; g < first.size(); ++g) {
      const std::int64_t at = rank[g];
      indices[at] = first[g];
      counts[at] = sizes[g];
      for (std::int64_t o = 0; o < outer; ++o) {
        std::copy_n(x + (o * length + first[g]) * inner, inner, y + (o * length + at) * inner);
      }
    }
    for (std::size_t i = 0; i < group.size(); ++i) inverse[i] = rank[static_cast<std::size_t>(group[i])];
    Output<std::int64_t>(args, 4)[0] = static_cast<std::int64_t>(first.size());
  }

  backend::AxisExtents extents_;
  bool sorted_;
};

}  // namespace

bool IsUniqueSupported(const backend::ILayerView& layer, std::string& reason) {
  return TakesNumbers("Unique", layer.GetInputInfo(0).type, reason);
}

std::unique_ptr<backend::IWorkload> CreateUniqueWorkload(const backend::ILayerView& layer) {
  const auto& d = DescriptorOf<UniqueDescriptor>(layer);
  const TensorInfo& x = layer.GetInputInfo(0);
  backend::AxisExtents extents{1, x.shape.NumElements(), 1};
  if (d.has_axis) {
    std::size_t axis = 0;
    NormalizeAxis(d.axis, x.shape.Rank(), axis);
    extents = backend::ExtentsAroundAxis(x.shape, axis);
  }
  return MakeForNumberType<UniqueWorkload>(x.type, extents, d.sorted);
}

}  // namespace backplane::reference
