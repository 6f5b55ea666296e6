// Unique (op set v2, ONNX Unique) on every number type (f16 and bf16 by value): the distinct slices along
// the axis (or elements of the flattened input), grouped by backend/data_dependent.hpp (numpy.unique
// with return_index, return_inverse and return_counts; slices compare lexicographically in C order,
// NaN after every number and equal to NaN). y, indices and counts are bound-shaped (padded past
// `count` with zeros); inverse_indices has one entry per slice; count (i64 [1]) is the number of
// distinct ones.
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/backend/data_dependent.hpp>
#include <backplane/descriptors.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace backplane::reference {

namespace {

template <typename T>
class UniqueWorkload final : public backend::IWorkload {
 public:
  UniqueWorkload(backend::AxisExtents extents, bool sorted) : extents_(extents), sorted_(sorted) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const T* x = Input<T>(args, 0);
    const std::int64_t length = extents_.length, inner = extents_.inner, outer = extents_.outer;
    // Slice i's elements, in C order: x[(o * length + i) * inner + k] for o, then k.
    const backend::UniqueSlices unique = backend::GroupUniqueSlices(length, sorted_, [&](std::int64_t a, std::int64_t b) {
      for (std::int64_t o = 0; o < outer; ++o) {
        for (std::int64_t k = 0; k < inner; ++k) {
          const int order = backend::CompareUniqueElements(x[(o * length + a) * inner + k], x[(o * length + b) * inner + k]);
          if (order != 0) return order;
        }
      }
      return 0;
    });
    T* y = Output<T>(args, 0);
    auto* indices = Output<std::int64_t>(args, 1);
    auto* counts = Output<std::int64_t>(args, 3);
    std::fill(y, y + outer * length * inner, T{0});
    std::fill(indices, indices + length, std::int64_t{0});
    std::fill(counts, counts + length, std::int64_t{0});
    std::copy(unique.first.begin(), unique.first.end(), indices);
    std::copy(unique.counts.begin(), unique.counts.end(), counts);
    std::copy(unique.inverse.begin(), unique.inverse.end(), Output<std::int64_t>(args, 2));
    for (std::size_t k = 0; k < unique.first.size(); ++k) {
      for (std::int64_t o = 0; o < outer; ++o) {
        std::copy_n(x + (o * length + unique.first[k]) * inner, inner,
                    y + (o * length + static_cast<std::int64_t>(k)) * inner);
      }
    }
    Output<std::int64_t>(args, 4)[0] = static_cast<std::int64_t>(unique.first.size());
  }

 private:
  backend::AxisExtents extents_;
  bool sorted_;
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateUniqueWorkload(const backend::ILayerView& layer) {
  const auto& d = DescriptorOf<UniqueDescriptor>(layer);
  const TensorInfo& x = layer.GetInputInfo(0);
  return MakeForArithmeticType<UniqueWorkload>(x.type, backend::ExtentsOfSlices(x.shape, d.has_axis, d.axis), d.sorted);
}

}  // namespace backplane::reference
