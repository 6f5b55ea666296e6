// Reshape and Flatten, f32: the bytes do not change, so the workload is one device-side buffer
// copy (none when the runtime gave input and output the same buffer). Every layer the op schema
// and the table's f32 check accept runs (the row check is backend::NoOwnLimits).
#include "op_kernels.hpp"
#include "op_support.hpp"
#include "opencl_workload.hpp"

namespace backplane::opencl {

namespace {

class CopyWorkload final : public OpenClWorkload {
 public:
  CopyWorkload(const backend::ILayerView& layer, OpenClDevice& device)
      : OpenClWorkload(layer, device), bytes_(layer.GetInputInfo(0).NumBytes()) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    EnqueueCopy(device_, In(args, 0), 0, Out(args, 0), 0, bytes_, name_.c_str());
  }

 private:
  std::size_t bytes_;
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateReshapeWorkload(const backend::ILayerView& layer, OpenClDevice& device) {
  return std::make_unique<CopyWorkload>(layer, device);
}

std::unique_ptr<backend::IWorkload> CreateFlattenWorkload(const backend::ILayerView& layer, OpenClDevice& device) {
  return std::make_unique<CopyWorkload>(layer, device);
}

}  // namespace backplane::opencl
