// Slice (ONNX), any element type. Per sliced axis: negative starts and ends count from the
// end; then, for a positive step, both are clamped to [0, dim], for a negative step start to
// [0, dim-1] and end to [-1, dim-1]; the axis keeps ceil((end - start) / step) elements
// (none if that is negative). The copy walks the output in order and the input from the
// first selected element with stride step * (dense stride) per axis.
#include "broadcast.hpp"
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace backplane::reference {

namespace {

// Where each axis of the input starts, how far it steps, and how many elements it keeps.
struct SliceWindow {
  std::vector<std::int64_t> start, step, count;
};

bool Window(const SliceDescriptor& descriptor, const TensorShape& shape, SliceWindow& window, std::string& reason) {
  const std::size_t n = descriptor.starts.size();
  if (descriptor.ends.size() != n || (!descriptor.axes.empty() && descriptor.axes.size() != n) ||
      (!descriptor.steps.empty() && descriptor.steps.size() != n)) {
    reason = "Slice has " + std::to_string(n) + " starts, " + std::to_string(descriptor.ends.size()) + " ends, " +
             std::to_string(descriptor.axes.size()) + " axes and " + std::to_string(descriptor.steps.size()) +
             " steps; ends, and axes and steps when given, need one per start";
    return false;
  }
  const std::size_t rank = shape.Rank();
  window.start.assign(rank, 0);
  window.step.assign(rank, 1);
  window.count = shape.Dims();
  std::vector<bool> seen(rank, false);
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t axis_value = descriptor.axes.empty() ? static_cast<std::int64_t>(i) : descriptor.axes[i];
    std::size_t axis = 0;
    if (!NormalizeAxis(axis_value, rank, axis)) {
      reason = "Slice axis " + std::to_string(axis_value) + " is out of range for input " + ToString(shape) +
               " of rank " + std::to_string(rank);
      return false;
    }
    if (seen[axis]) {
      reason = "Slice names axis " + std::to_string(axis) + " of " + ToString(shape) + " twice";
      return false;
    }
    seen[axis] = true;
    std::int64_t step = descriptor.steps.empty() ? 1 : descriptor.steps[i];
    if (step == 0) {
      reason = "Slice step for axis " + std::to_string(axis_value) + " is 0";
      return false;
    }
    const std::int64_t dim = shape[axis];
    // A step longer than the axis selects at most one element either way; bounding it keeps
    // the arithmetic below from overflowing.
    step = std::clamp<std::int64_t>(step, -(dim + 1), dim + 1);
    std::int64_t start = descriptor.starts[i];
    std::int64_t end = descriptor.ends[i];
    if (start < 0) start += dim;
    if (end < 0) end += dim;
    if (step > 0) {
      start = std::clamp<std::int64_t>(start, 0, dim);
      end = std::clamp<std::int64_t>(end, 0, dim);
    } else {
      start = std::clamp<std::int64_t>(start, 0, dim - 1);
      end = std::clamp<std::int64_t>(end, -1, dim - 1);
    }
    // Exact ceiling of a quotient of two values of the same sign; both now lie within [-1, dim].
    const std::int64_t span = end - start;
    std::int64_t count = 0;
    if (step > 0 && span > 0) count = (span + step - 1) / step;
    if (step < 0 && span < 0) count = (-span + -step - 1) / -step;
    window.start[axis] = count > 0 ? start : 0;
    window.step[axis] = step;
    window.count[axis] = count;
  }
  return true;
}

class SliceWorkload final : public backend::IWorkload {
 public:
  SliceWorkload(StridedLoop<2> loop, std::int64_t first, std::size_t element_size)
      : loop_(std::move(loop)), first_(first), element_size_(element_size) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const auto* in = Input<unsigned char>(args, 0);
    auto* out = Output<unsigned char>(args, 0);
    const auto size = static_cast<std::int64_t>(element_size_);
    loop_.ForEachRow([&](const StridedLoop<2>::Offsets& at, std::int64_t n, const StridedLoop<2>::Offsets& step) {
      CopyElements(out + at[0] * size, step[0], in + (first_ + at[1]) * size, step[1], n, element_size_);
    });
  }

 private:
  StridedLoop<2> loop_;
  std::int64_t first_;  // element offset of the first selected input element
  std::size_t element_size_;
};

}  // namespace

bool IsSliceSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!HasArity(layer, 1, 1, 1, reason)) return false;
  const TensorInfo& in = layer.GetInputInfo(0);
  const TensorInfo& out = layer.GetOutputInfo(0);
  if (SizeOf(in.type) == 0) {
    reason = "Slice input has an unknown data type (" + std::to_string(static_cast<std::uint32_t>(in.type)) + ")";
    return false;
  }
  if (in.type != out.type) {
    reason = "Slice output type " + std::string(ToString(out.type)) + " differs from input type " + ToString(in.type);
    return false;
  }
  SliceWindow window;
  if (!Window(DescriptorOf<SliceDescriptor>(layer), in.shape, window, reason)) return false;
  if (out.shape != TensorShape(window.count)) {
    reason = "Slice output " + ToString(out.shape) + " is not " + ToString(TensorShape(window.count)) +
             ", the slice of input " + ToString(in.shape);
    return false;
  }
  return true;
}

std::unique_ptr<backend::IWorkload> CreateSliceWorkload(const backend::ILayerView& layer) {
  const TensorInfo& in = layer.GetInputInfo(0);
  SliceWindow window;
  std::string unused;
  Window(DescriptorOf<SliceDescriptor>(layer), in.shape, window, unused);
  const auto dense = DenseStrides(in.shape);
  std::vector<std::int64_t> read(in.shape.Rank());
  std::int64_t first = 0;
  for (std::size_t d = 0; d < in.shape.Rank(); ++d) {
    first += window.start[d] * dense[d];
    read[d] = window.step[d] * dense[d];
  }
  const TensorShape out(window.count);
  return std::make_unique<SliceWorkload>(StridedLoop<2>(out.Dims(), {DenseStrides(out), read}), first,
                                         SizeOf(in.type));
}

}  // namespace backplane::reference
