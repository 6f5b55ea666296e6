// CpuRef: the reference CPU backend, plain C++ with no third-party library. It is the
// baseline every other backend is compared against: every op of op set v1, written to be
// obviously correct, with cache-friendly convolution and matrix products (ops/).
#pragma once

#include <backplane/backend/backend.hpp>

#include <memory>
#include <string>
#include <vector>

namespace backplane::reference {

inline constexpr const char* kReferenceBackendId = "CpuRef";

// Stateless: holds nothing but constants, so instances are cheap and independent, and every
// method is thread-safe. Objects it returns do not refer back to it and may outlive it.
class ReferenceBackend final : public backend::IBackend {
 public:
  BackendId GetId() const override;
  // One device: the host CPU, named with its hardware thread count.
  std::vector<backend::DeviceInfo> GetDevices() const override;
  // Equal to the "capabilities" object of the plugin's manifest (capabilities.json).
  backend::BackendCapabilities GetCapabilities() const override;
  // "threads", the common option every bundled backend accepts: CpuRef is single-threaded and
  // ignores its value (it creates no backend context).
  std::vector<backend::OptionSpec> GetOptionSpecs() const override;
  std::shared_ptr<backend::ILayerSupport> GetLayerSupport() const override;
  // `memory_manager` and `context` are ignored: the backend creates neither.
  std::unique_ptr<backend::IWorkloadFactory> CreateWorkloadFactory(
      const std::shared_ptr<backend::IMemoryManager>& memory_manager,
      backend::IBackendContext* context) const override;
};

}  // namespace backplane::reference
