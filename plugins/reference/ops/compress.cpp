// Compress (op set v2, ONNX Compress) on every type: the slices along the axis (or the elements
// of the flattened input) whose condition entry is true, in order, into the bound-shaped output
// (padded past `count` with zeros), and count (i64 [1]).
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/backend/data_dependent.hpp>
#include <backplane/descriptors.hpp>

#include <algorithm>
#include <cstdint>
#include <cstring>

namespace backplane::reference {

namespace {

// U: an unsigned integer of the element's size (the op moves elements, never computes).
template <typename U>
class CompressWorkload final : public backend::IWorkload {
 public:
  CompressWorkload(backend::AxisExtents extents, std::int64_t selectable, std::int64_t bound)
      : extents_(extents), selectable_(selectable), bound_(bound) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const U* x = Input<U>(args, 0);
    const auto* condition = Input<std::uint8_t>(args, 1);
    U* y = Output<U>(args, 0);
    const std::int64_t inner = extents_.inner;
    std::fill(y, y + extents_.outer * bound_ * inner, U{0});
    const std::int64_t usable = std::min(selectable_, extents_.length);
    std::int64_t count = 0;
    for (std::int64_t i = 0; i < usable; ++i) {
      if (!condition[i]) continue;
      for (std::int64_t o = 0; o < extents_.outer; ++o) {
        std::copy_n(x + (o * extents_.length + i) * inner, inner, y + (o * bound_ + count) * inner);
      }
      ++count;
    }
    Output<std::int64_t>(args, 1)[0] = count;
  }

 private:
  backend::AxisExtents extents_;
  std::int64_t selectable_, bound_;
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateCompressWorkload(const backend::ILayerView& layer) {
  const auto& d = DescriptorOf<CompressDescriptor>(layer);
  const TensorInfo& x = layer.GetInputInfo(0);
  const backend::AxisExtents extents = backend::ExtentsOfSlices(x.shape, d.has_axis, d.axis);
  const std::int64_t selectable = layer.GetInputInfo(1).shape.Dims()[0];
  return MakeForElementSize<CompressWorkload>(SizeOf(x.type), extents, selectable, std::min(selectable, extents.length));
}

}  // namespace backplane::reference
