// Split along one axis into one output per entry of `sizes` (equal parts when empty), f32.
// Around the axis the input is [outer, row]; output i is one strided copy of its columns.
#include "kernel_sources.hpp"
#include "op_kernels.hpp"
#include "op_support.hpp"
#include "strided_copy.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

namespace backplane::opencl {

namespace {

bool PartSizes(const backend::ILayerView& layer, std::size_t axis, std::vector<std::int64_t>& parts,
               std::string& reason) {
  const auto& sizes = DescriptorOf<SplitDescriptor>(layer).sizes;
  const TensorShape& in = layer.GetInputInfo(0).shape;
  const std::size_t outputs = layer.GetNumOutputs();
  const std::int64_t length = in[axis];
  if (sizes.empty()) {
    if (length % static_cast<std::int64_t>(outputs) != 0) {
      return Fail(reason, layer, "without sizes it cannot divide axis " + std::to_string(axis) + " of length " +
                                     std::to_string(length) + " into " + std::to_string(outputs) + " equal parts");
    }
    parts.assign(outputs, length / static_cast<std::int64_t>(outputs));
    return true;
  }
  if (sizes.size() != outputs) {
    return Fail(reason, layer, "it has " + std::to_string(sizes.size()) + " sizes but " + std::to_string(outputs) +
                                   " outputs");
  }
  std::int64_t total = 0;
  for (const std::int64_t size : sizes) {
    if (size < 0) return Fail(reason, layer, "sizes " + ToString(TensorShape(sizes)) + " contain a negative size");
    total += size;
  }
  if (total != length) {
    return Fail(reason, layer, "sizes " + ToString(TensorShape(sizes)) + " sum to " + std::to_string(total) +
                                   ", axis " + std::to_string(axis) + " has length " + std::to_string(length));
  }
  parts = sizes;
  return true;
}

class SplitWorkload final : public OpenClWorkload {
 public:
  SplitWorkload(const backend::ILayerView& layer, OpenClDevice& device, std::size_t a)
      : OpenClWorkload(layer, device), kernel_(MakeKernel(device, kKernelSource_data_movement, "strided_copy")) {
    const TensorShape& in = layer.GetInputInfo(0).shape;
    std::int64_t outer = 1, inner = 1;
    for (std::size_t d = 0; d < a; ++d) outer *= in[d];
    for (std::size_t d = a + 1; d < in.Rank(); ++d) inner *= in[d];
    const std::int64_t row = in[a] * inner;
    std::int64_t column = 0;
    for (std::size_t i = 0; i < layer.GetNumOutputs(); ++i) {
      const std::int64_t block = layer.GetOutputInfo(i).shape[a] * inner;
      CopyPlan plan;
      MakeCopyPlan({outer, block}, column, {row, 1}, 0, {block, 1}, plan);
      plans_.push_back(plan);
      column += block;
    }
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    cl_mem x = In(args, 0);
    for (std::size_t i = 0; i < plans_.size(); ++i) {
      EnqueueCopyPlan(device_, kernel_.Get(), plans_[i], x, Out(args, i), name_.c_str());
    }
  }

 private:
  ClKernel kernel_;
  std::vector<CopyPlan> plans_;  // one per output
};

}  // namespace

bool IsSplitSupported(const backend::ILayerView& layer, std::string& reason) {
  if (layer.GetNumOutputs() == 0) return Fail(reason, layer, "Split has at least 1 output");
  if (!HasArity(layer, 1, 1, layer.GetNumOutputs(), reason)) return false;
  const TensorShape& in = layer.GetInputInfo(0).shape;
  const std::int32_t axis = DescriptorOf<SplitDescriptor>(layer).axis;
  std::size_t a = 0;
  if (!NormalizeAxis(axis, in.Rank(), a)) {
    return Fail(reason, layer, "axis " + std::to_string(axis) + " is out of range for input " + ToString(in) +
                                   " of rank " + std::to_string(in.Rank()));
  }
  std::vector<std::int64_t> parts;
  if (!PartSizes(layer, a, parts, reason)) return false;
  for (std::size_t i = 0; i < layer.GetNumOutputs(); ++i) {
    std::vector<std::int64_t> expected = in.Dims();
    expected[a] = parts[i];
    if (layer.GetOutputInfo(i).shape != TensorShape(expected)) {
      return Fail(reason, layer, "output " + std::to_string(i) + " " + ToString(layer.GetOutputInfo(i).shape) +
                                     " is not " + ToString(TensorShape(expected)));
    }
  }
  return FitsKernelIndexing(layer, in, reason);
}

std::unique_ptr<backend::IWorkload> CreateSplitWorkload(const backend::ILayerView& layer, OpenClDevice& device) {
  std::string reason;
  if (!IsSplitSupported(layer, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  std::size_t a = 0;
  NormalizeAxis(DescriptorOf<SplitDescriptor>(layer).axis, layer.GetInputInfo(0).shape.Rank(), a);
  return std::make_unique<SplitWorkload>(layer, device, a);
}

}  // namespace backplane::opencl
