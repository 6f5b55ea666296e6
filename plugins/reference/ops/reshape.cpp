// Reshape and Flatten, any element type: the bytes are unchanged, so the workload copies them
// (nothing when the runtime gave input and output the same memory). Every layer the op schema
// accepts runs (the row check is backend::NoOwnLimits).
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <cstring>

namespace backplane::reference {

namespace {

class CopyWorkload final : public backend::IWorkload {
 public:
  explicit CopyWorkload(std::size_t bytes) : bytes_(bytes) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const void* in = Input<void>(args, 0);
    void* out = Output<void>(args, 0);
    if (in != out && bytes_ > 0) std::memcpy(out, in, bytes_);
  }

 private:
  std::size_t bytes_;
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateReshapeWorkload(const backend::ILayerView& layer) {
  return std::make_unique<CopyWorkload>(layer.GetInputInfo(0).NumBytes());
}

std::unique_ptr<backend::IWorkload> CreateFlattenWorkload(const backend::ILayerView& layer) {
  return std::make_unique<CopyWorkload>(layer.GetInputInfo(0).NumBytes());
}

}  // namespace backplane::reference
