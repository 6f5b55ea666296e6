// Transpose, f32: output dimension i is input dimension permutation[i]. One strided copy
// (strided_copy.hpp) writing the output in order and reading the input through permuted
// strides, dimensions that stay adjacent in both merged.
#include "kernel_sources.hpp"
#include "op_kernels.hpp"
#include "op_support.hpp"
#include "strided_copy.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

namespace backplane::opencl {

namespace {

std::vector<std::uint32_t> Permutation(const TransposeDescriptor& d, std::size_t rank) {
  if (!d.permutation.empty()) return d.permutation;
  std::vector<std::uint32_t> reversed(rank);
  for (std::size_t i = 0; i < rank; ++i) reversed[i] = static_cast<std::uint32_t>(rank - 1 - i);
  return reversed;
}

std::string ListText(const std::vector<std::uint32_t>& values) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) text += (i ? "," : "") + std::to_string(values[i]);
  return text + "]";
}

class TransposeWorkload final : public OpenClWorkload {
 public:
  TransposeWorkload(const backend::ILayerView& layer, OpenClDevice& device, const CopyPlan& plan)
      : OpenClWorkload(layer, device), kernel_(MakeKernel(device, kKernelSource_data_movement, "strided_copy")),
        plan_(plan) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    EnqueueCopyPlan(device_, kernel_.Get(), plan_, In(args, 0), Out(args, 0), name_.c_str());
  }

 private:
  ClKernel kernel_;
  CopyPlan plan_;
};

bool Plan(const backend::ILayerView& layer, CopyPlan& plan, std::string& reason) {
  const TensorShape& in = layer.GetInputInfo(0).shape;
  const TensorShape& out = layer.GetOutputInfo(0).shape;
  const auto permutation = Permutation(DescriptorOf<TransposeDescriptor>(layer), in.Rank());
  if (permutation.size() != in.Rank()) {
    return Fail(reason, layer, "permutation " + ListText(permutation) + " has " + std::to_string(permutation.size()) +
                                   " entries, input " + ToString(in) + " has rank " + std::to_string(in.Rank()));
  }
  std::vector<bool> seen(permutation.size(), false);
  std::vector<std::int64_t> expected;
  for (const std::uint32_t axis : permutation) {
    if (axis >= permutation.size() || seen[axis]) {
      return Fail(reason, layer, "permutation " + ListText(permutation) + " is not a permutation of 0.." +
                                     std::to_string(permutation.size() - 1));
    }
    seen[axis] = true;
    expected.push_back(in[axis]);
  }
  if (out != TensorShape(expected)) {
    return Fail(reason, layer, "output " + ToString(out) + " is not " + ToString(TensorShape(expected)) + ", input " +
                                   ToString(in) + " permuted by " + ListText(permutation));
  }
  if (!FitsKernelIndexing(layer, in, reason)) return false;
  const auto in_strides = DenseStrides(in);
  std::vector<std::int64_t> read(permutation.size());
  for (std::size_t i = 0; i < permutation.size(); ++i) read[i] = in_strides[permutation[i]];
  if (!MakeCopyPlan(out.Dims(), 0, read, 0, DenseStrides(out), plan)) {
    return Fail(reason, layer, "the permutation needs more than 8 dimensions");
  }
  return true;
}

}  // namespace

bool IsTransposeSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!HasArity(layer, 1, 1, 1, reason)) return false;
  CopyPlan plan;
  return Plan(layer, plan, reason);
}

std::unique_ptr<backend::IWorkload> CreateTransposeWorkload(const backend::ILayerView& layer, OpenClDevice& device) {
  CopyPlan plan;
  std::string reason;
  if (!HasArity(layer, 1, 1, 1, reason) || !Plan(layer, plan, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  return std::make_unique<TransposeWorkload>(layer, device, plan);
}

}  // namespace backplane::opencl
