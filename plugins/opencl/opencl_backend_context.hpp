// OpenClBackendContext: the GpuOpenCl backend's per-runtime state — its settings (from the
// runtime's backend options) and the one OpenClDevice every network loaded in that runtime
// runs on, so programs compiled for one network are reused by the next.
#pragma once

#include "opencl_device.hpp"
#include "opencl_settings.hpp"

#include <backplane/backend/backend_context.hpp>
#include <backplane/logging.hpp>

#include <memory>
#include <mutex>

namespace backplane::opencl {

// Created by OpenClBackend::CreateBackendContext; owned by the runtime, which keeps it alive
// longer than every network it loaded (so workloads may keep plain device pointers). Creating
// it opens no device: runtime creation stays cheap and never fails for lack of OpenCL.
// Thread-safe.
class OpenClBackendContext final : public backend::IBackendContext {
 public:
  // `log` is the runtime's channel for this backend (BackendConfig::log); may be null (direct
  // use in tests), then nothing is logged.
  OpenClBackendContext(OpenClSettings settings, std::shared_ptr<ILogSink> log);
  ~OpenClBackendContext() override;

  const OpenClSettings& Settings() const { return settings_; }

  // The runtime's device, created on the first call (context, queue, program cache) and shared
  // afterwards. Creating it logs the device chosen (info) and, when program binaries cannot be
  // cached in the configured folder, why and what is used instead (warning). Throws
  // backplane::Exception (kUnsupported) with the reason when the settings allow no device,
  // kBackendFailure when OpenCL fails to create it; a later call tries again.
  std::shared_ptr<OpenClDevice> Device();

  bool BeforeLoadNetwork(backend::NetworkId network) override;
  // Waits for the device queue (weight uploads of the new network), so the first run does not
  // pay for them. Returns false only when that wait fails.
  bool AfterLoadNetwork(backend::NetworkId network) override;
  bool BeforeUnloadNetwork(backend::NetworkId network) override;
  bool AfterUnloadNetwork(backend::NetworkId network) override;

 private:
  const OpenClSettings settings_;
  const std::shared_ptr<ILogSink> log_;
  std::mutex mutex_;  // guards device_
  std::shared_ptr<OpenClDevice> device_;
};

}  // namespace backplane::opencl
