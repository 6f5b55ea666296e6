// TopK (op set v2, ONNX TopK with a constant k) on every number type but f16/bf16: the k
// largest (or smallest) values along the axis, sorted, and their i64 positions; equal values in
// the order of their positions; NaN larger than every number (first when largest, last when not).
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <type_traits>
#include <vector>

namespace backplane::reference {

namespace {

// Whether a (at position i) comes before b (at position j) among the largest.
template <typename T>
bool Larger(T a, T b) {
  if (IsNanElement(a) || IsNanElement(b)) return IsNanElement(a) && !IsNanElement(b);
  return a > b;
}

template <typename T>
class TopKWorkload final : public backend::IWorkload {
 public:
  TopKWorkload(backend::AxisExtents extents, std::int64_t k, bool largest) : extents_(extents), k_(k), largest_(largest) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const T* x = Input<T>(args, 0);
    T* values = Output<T>(args, 0);
    auto* indices = Output<std::int64_t>(args, 1);
    const std::int64_t inner = extents_.inner;
    std::vector<std::int64_t> order(static_cast<std::size_t>(extents_.length));
    for (std::int64_t o = 0; o < extents_.outer; ++o) {
      for (std::int64_t i = 0; i < inner; ++i) {
        const T* row = x + o * extents_.length * inner + i;
        std::iota(order.begin(), order.end(), std::int64_t{0});
        const auto before = [&](std::int64_t a, std::int64_t b) {
          const T va = row[a * inner], vb = row[b * inner];
          if (largest_ ? Larger(va, vb) : Larger(vb, va)) return true;
          if (largest_ ? Larger(vb, va) : Larger(va, vb)) return false;
          return a < b;  // equal (or both NaN): the earlier position first
        };
        std::partial_sort(order.begin(), order.begin() + k_, order.end(), before);
        for (std::int64_t j = 0; j < k_; ++j) {
          const std::int64_t at = (o * k_ + j) * inner + i;
          values[at] = row[order[static_cast<std::size_t>(j)] * inner];
          indices[at] = order[static_cast<std::size_t>(j)];
        }
      }
    }
  }

 private:
  backend::AxisExtents extents_;
  std::int64_t k_;
  bool largest_;
};

}  // namespace

bool IsTopKSupported(const backend::ILayerView& layer, std::string& reason) {
  return TakesNumbers("TopK", layer.GetInputInfo(0).type, reason);
}

std::unique_ptr<backend::IWorkload> CreateTopKWorkload(const backend::ILayerView& layer) {
  const auto& d = DescriptorOf<TopKDescriptor>(layer);
  const TensorInfo& x = layer.GetInputInfo(0);
  std::size_t axis = 0;
  NormalizeAxis(d.axis, x.shape.Rank(), axis);
  const backend::AxisExtents extents = backend::ExtentsAroundAxis(x.shape, axis);
  return MakeForNumberType<TopKWorkload>(x.type, extents, d.k, d.largest);
}

}  // namespace backplane::reference
