// Slice (ONNX), f32, with CpuRef's clamping rules (negative starts/ends from the end, steps
// of either sign): one strided copy (strided_copy.hpp) reading the input from the first
// selected element with stride step * (dense stride) per axis.
#include "kernel_sources.hpp"
#include "op_kernels.hpp"
#include "op_support.hpp"
#include "strided_copy.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <algorithm>

namespace backplane::opencl {

namespace {

struct SliceWindow {
  std::vector<std::int64_t> start, step, count;
};

bool Window(const backend::ILayerView& layer, const TensorShape& shape, SliceWindow& window, std::string& reason) {
  const auto& d = DescriptorOf<SliceDescriptor>(layer);
  const std::size_t n = d.starts.size();
  if (d.ends.size() != n || (!d.axes.empty() && d.axes.size() != n) || (!d.steps.empty() && d.steps.size() != n)) {
    return Fail(reason, layer, std::to_string(n) + " starts, " + std::to_string(d.ends.size()) + " ends, " +
                                   std::to_string(d.axes.size()) + " axes and " + std::to_string(d.steps.size()) +
                                   " steps; ends, and axes and steps when given, need one per start");
  }
  const std::size_t rank = shape.Rank();
  window.start.assign(rank, 0);
  window.step.assign(rank, 1);
  window.count = shape.Dims();
  std::vector<bool> seen(rank, false);
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t axis_value = d.axes.empty() ? static_cast<std::int64_t>(i) : d.axes[i];
    std::size_t axis = 0;
    if (!NormalizeAxis(axis_value, rank, axis)) {
      return Fail(reason, layer, "axis " + std::to_string(axis_value) + " is out of range for input " +
                                     ToString(shape) + " of rank " + std::to_string(rank));
    }
    if (seen[axis]) return Fail(reason, layer, "axis " + std::to_string(axis) + " is named twice");
    seen[axis] = true;
    std::int64_t step = d.steps.empty() ? 1 : d.steps[i];
    if (step == 0) return Fail(reason, layer, "step for axis " + std::to_string(axis_value) + " is 0");
    const std::int64_t dim = shape[axis];
    step = std::clamp<std::int64_t>(step, -(dim + 1), dim + 1);
    std::int64_t start = d.starts[i], end = d.ends[i];
    if (start < 0) start += dim;
    if (end < 0) end += dim;
    if (step > 0) {
      start = std::clamp<std::int64_t>(start, 0, dim);
      end = std::clamp<std::int64_t>(end, 0, dim);
    } else {
      start = std::clamp<std::int64_t>(start, 0, dim - 1);
      end = std::clamp<std::int64_t>(end, -1, dim - 1);
    }
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

bool Plan(const backend::ILayerView& layer, CopyPlan& plan, std::string& reason) {
  const TensorShape& in = layer.GetInputInfo(0).shape;
  SliceWindow window;
  if (!Window(layer, in, window, reason)) return false;
  const TensorShape out(window.count);
  if (layer.GetOutputInfo(0).shape != out) {
    return Fail(reason, layer, "output " + ToString(layer.GetOutputInfo(0).shape) + " is not " + ToString(out) +
                                   ", the slice of input " + ToString(in));
  }
  if (!FitsKernelIndexing(layer, in, reason)) return false;
  const auto dense = DenseStrides(in);
  std::vector<std::int64_t> read(in.Rank());
  std::int64_t first = 0;
  for (std::size_t d = 0; d < in.Rank(); ++d) {
    first += window.start[d] * dense[d];
    read[d] = window.step[d] * dense[d];
  }
  MakeCopyPlan(out.Dims(), first, read, 0, DenseStrides(out), plan);
  return true;
}

class SliceWorkload final : public OpenClWorkload {
 public:
  SliceWorkload(const backend::ILayerView& layer, OpenClDevice& device, const CopyPlan& plan)
      : OpenClWorkload(layer, device), kernel_(MakeKernel(device, kKernelSource_data_movement, "strided_copy")),
        plan_(plan) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    EnqueueCopyPlan(device_, kernel_.Get(), plan_, In(args, 0), Out(args, 0), name_.c_str());
  }

 private:
  ClKernel kernel_;
  CopyPlan plan_;
};

}  // namespace

bool IsSliceSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!HasArity(layer, 1, 1, 1, reason)) return false;
  CopyPlan plan;
  return Plan(layer, plan, reason);
}

std::unique_ptr<backend::IWorkload> CreateSliceWorkload(const backend::ILayerView& layer, OpenClDevice& device) {
  CopyPlan plan;
  std::string reason;
  if (!HasArity(layer, 1, 1, 1, reason) || !Plan(layer, plan, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  return std::make_unique<SliceWorkload>(layer, device, plan);
}

}  // namespace backplane::opencl
