// GpuOpenCl: the OpenCL GPU backend. Runs on the first OpenCL GPU (or accelerator) of the
// machine; on a CPU OpenCL device (PoCL) only when BACKPLANE_OPENCL_ALLOW_CPU=1 or the backend
// option allow_cpu_device=1 allows it. Without OpenCL it stays registered and reports itself
// unavailable with the reason.
#pragma once

#include "opencl_device.hpp"

#include <backplane/backend/backend.hpp>

#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace backplane::opencl {

inline constexpr const char* kOpenClBackendId = "GpuOpenCl";

// Cheap to create: holds no OpenCL object of its own until it creates a workload factory.
// Every const method is thread-safe. Availability and the device list come from the
// process-wide device enumeration (device_selection.hpp) and the settings: the backend
// context's (options over environment) where there is one, else the environment's.
//
// One piece of per-instance state: the device of the last workload factory this instance
// created, so that RegisterTensorHandleFactories on the same instance (the runtime loads a
// network as instance -> CreateWorkloadFactory -> RegisterTensorHandleFactories) gives buffers
// in the same OpenCL context as the workloads. Objects the instance returns share ownership of
// their device and may outlive the instance.
class OpenClBackend final : public backend::IBackend {
 public:
  BackendId GetId() const override;
  // With an OpenClBackendContext: whether its settings (options over environment) allow a
  // device, so allow_cpu_device=1 alone makes a CPU device usable. Without one (null or
  // another backend's): whether the environment's policy does. False with the reason ("no
  // OpenCL platform (ICD loader found no vendors)", "no GPU device; CPU device '...' present but
  // not allowed (...)"). Never throws.
  bool IsAvailable(backend::IBackendContext* context, std::string* reason) const override;
  // Every OpenCL device found, each available or "unavailable: <why>" under the environment's
  // policy.
  std::vector<backend::DeviceInfo> GetDevices() const override;
  // device_kind gpu, f32 and i64 tensors, the op table's layer types.
  backend::BackendCapabilities GetCapabilities() const override;
  // Fuses a product with the residual add and activation after it (fusion.hpp).
  backend::OptimizationViews OptimizeSubgraph(const backend::SubgraphView& subgraph) const override;
  std::shared_ptr<backend::ILayerSupport> GetLayerSupport() const override;

  // allow_cpu_device, device, cache_dir (opencl_settings.hpp) and the common threads.
  std::vector<backend::OptionSpec> GetOptionSpecs() const override;

  // With an OpenClBackendContext: the context's device (created on first use, then shared by
  // every network of the runtime). Without one (null or another backend's): a device chosen by
  // the environment, created for this factory alone. Throws backplane::Exception
  // (kUnsupported) with the reason when none may be used.
  std::unique_ptr<backend::IWorkloadFactory> CreateWorkloadFactory(
      const std::shared_ptr<backend::IMemoryManager>& memory_manager,
      backend::IBackendContext* context) const override;
  // An OpenClBackendContext over SettingsFromOptions(config.options), logging to config.log.
  // Opens no device. Throws backplane::Exception (kInvalidArgument) for an unknown option or a
  // malformed value.
  std::unique_ptr<backend::IBackendContext> CreateBackendContext(const backend::BackendConfig& config) const override;

  // "Backplane/GpuOpenCl/Buffer", on the device of this instance's last workload factory; when
  // there is none (the optimizer describing the backend), a factory that only describes the
  // environment-chosen device's properties.
  void RegisterTensorHandleFactories(backend::ITensorHandleFactoryRegistry& registry) const override;
  // Only the Buffer factory: workloads need OpenClBufferHandle inputs, so host tensors reach
  // them by import (where the device shares host memory) or by copy.
  std::vector<backend::FactoryId> GetHandleFactoryPreferences() const override;

  // "GpuOpenCl 0.1.0": id and plugin version, the prefix of every message the backend writes.
  static std::string Label();

 private:
  mutable std::mutex mutex_;  // guards last_device_
  mutable std::shared_ptr<OpenClDevice> last_device_;
};

}  // namespace backplane::opencl
