// Creates CpuRef's workloads for one loaded network. This release has no kernels, so it
// creates none: every request fails with kUnsupported naming the layer.
#pragma once

#include <backplane/backend/workload.hpp>

#include <memory>
#include <string>

namespace backplane::reference {

// Holds only its label. Not thread-safe (the runtime calls a factory from one thread).
class ReferenceWorkloadFactory final : public backend::IWorkloadFactory {
 public:
  // `backend_label` ("CpuRef 0.1.0") starts every error message.
  explicit ReferenceWorkloadFactory(std::string backend_label);

  // Throws backplane::Exception (ErrorCode::kUnsupported) naming the layer's type and name.
  std::unique_ptr<backend::IWorkload> CreateWorkload(const backend::ILayerView& layer) override;

 private:
  std::string backend_label_;
};

}  // namespace backplane::reference
