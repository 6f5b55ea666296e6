// Concat of N inputs along one axis, f32. Around the axis each input is [outer, block]; input
// i is one strided copy (strided_copy.hpp) into its columns of the output's [outer, row] rows,
// a plain buffer copy when outer is 1.
#include "kernel_sources.hpp"
#include "op_kernels.hpp"
#include "op_support.hpp"
#include "strided_copy.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

namespace backplane::opencl {

namespace {

class ConcatWorkload final : public OpenClWorkload {
 public:
  ConcatWorkload(const backend::ILayerView& layer, OpenClDevice& device)
      : OpenClWorkload(layer, device), kernel_(MakeKernel(device, kKernelSource_data_movement, "strided_copy")) {
    const TensorShape& out = layer.GetOutputInfo(0).shape;
    std::size_t a = 0;
    NormalizeAxis(DescriptorOf<ConcatDescriptor>(layer).axis, out.Rank(), a);
    const backend::AxisExtents around = backend::ExtentsAroundAxis(out, a);
    const std::int64_t row = around.length * around.inner;
    std::int64_t column = 0;
    for (std::size_t i = 0; i < layer.GetNumInputs(); ++i) {
      const std::int64_t block = layer.GetInputInfo(i).shape[a] * around.inner;
      CopyPlan plan;
      MakeCopyPlan({around.outer, block}, 0, {block, 1}, column, {row, 1}, plan);
      plans_.push_back(plan);
      column += block;
    }
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    cl_mem y = Out(args, 0);
    for (std::size_t i = 0; i < plans_.size(); ++i) {
      EnqueueCopyPlan(device_, kernel_.Get(), plans_[i], In(args, i), y, name_.c_str());
    }
  }

 private:
  ClKernel kernel_;
  std::vector<CopyPlan> plans_;  // one per input
};

}  // namespace

bool IsConcatSupported(const backend::ILayerView& layer, std::string& reason) {
  return FitsKernelIndexing(layer.GetOutputInfo(0).shape, reason);
}

std::unique_ptr<backend::IWorkload> CreateConcatWorkload(const backend::ILayerView& layer, OpenClDevice& device) {
  return std::make_unique<ConcatWorkload>(layer, device);
}

}  // namespace backplane::opencl
