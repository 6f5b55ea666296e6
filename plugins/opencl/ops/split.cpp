// Split along one axis into one output per entry of `sizes` (equal parts when empty), f32.
// Around the axis the input is [outer, row]; output i is one strided copy of its columns.
#include "kernel_sources.hpp"
#include "op_kernels.hpp"
#include "op_support.hpp"
#include "strided_copy.hpp"

#include <backplane/backend/op_geometry.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

namespace backplane::opencl {

namespace {

class SplitWorkload final : public OpenClWorkload {
 public:
  SplitWorkload(const backend::ILayerView& layer, OpenClDevice& device, const backend::SplitGeometry& g)
      : OpenClWorkload(layer, device), kernel_(MakeKernel(device, kKernelSource_data_movement, "strided_copy")) {
    std::int64_t row = 0;
    for (const std::int64_t part : g.parts) row += part * g.inner;
    std::int64_t column = 0;
    for (const std::int64_t part : g.parts) {
      const std::int64_t block = part * g.inner;
      CopyPlan plan;
      MakeCopyPlan({g.outer, block}, column, {row, 1}, 0, {block, 1}, plan);
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

std::unique_ptr<backend::IWorkload> CreateSplitWorkload(const backend::ILayerView& layer, OpenClDevice& device) {
  backend::SplitGeometry g;
  std::string reason;
  if (!backend::DescribeSplit(layer, g, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  return std::make_unique<SplitWorkload>(layer, device, g);
}

}  // namespace backplane::opencl
