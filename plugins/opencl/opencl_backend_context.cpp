#include "opencl_backend_context.hpp"

#include "opencl_device_creation.hpp"
#include "ops/gemm.hpp"
#ifdef BACKPLANE_OPENCL_WITH_CLBLAST
#include "clblast_tuning.hpp"
#endif

#include <string>
#include <utility>

namespace backplane::opencl {

namespace {

// The runtime prefixes each message with the backend's id ("GpuOpenCl: ").
void Log(ILogSink* log, LogLevel level, const std::string& message) {
  if (log && log->IsEnabled(level, LogCategory::kPlugin)) log->Write(level, LogCategory::kPlugin, message);
}

}  // namespace

OpenClBackendContext::OpenClBackendContext(OpenClSettings settings, std::shared_ptr<ILogSink> log)
    : settings_(std::move(settings)), log_(std::move(log)) {}

OpenClBackendContext::~OpenClBackendContext() = default;

std::shared_ptr<OpenClDevice> OpenClBackendContext::Device() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!device_) {
    device_ = CreateChosenDevice(settings_);
    Log(log_.get(), LogLevel::kInfo, "using " + device_->Description());
    if (!device_->ProgramCacheNote().empty()) {
      Log(log_.get(), LogLevel::kWarning, "program cache: " + device_->ProgramCacheNote());
    }
    if (device_->CpuKernels() || !kWithClblast) {
      // CLBlast's parameters and its tuner concern CLBlast's kernels alone.
      std::string gemm =
          device_->CpuKernels() ? "kernels shaped for a CPU: " : "kernels shaped for a GPU; matrix products: ";
      gemm += "GpuOpenCl's register-tiled GEMM";
      gemm += kWithClblast ? " (option kernels=gpu runs CLBlast's)" : " (this build has no CLBlast)";
      Log(log_.get(), settings_.tune ? LogLevel::kWarning : LogLevel::kInfo,
          gemm + (settings_.tune ? "; option tune has no effect on it" : ""));
      return device_;
    }
#ifdef BACKPLANE_OPENCL_WITH_CLBLAST
    const ClblastTuning tuning = PrepareClblastTuning(*device_, settings_.tune, [this](const std::string& message) {
      Log(log_.get(), LogLevel::kInfo, message);
    });
    const bool tuning_failed = settings_.tune && tuning.source == ClblastTuning::Source::kDatabase;
    Log(log_.get(), tuning_failed ? LogLevel::kWarning : LogLevel::kInfo, "GEMM parameters: " + tuning.note);
#endif
  }
  return device_;
}

bool OpenClBackendContext::BeforeLoadNetwork(backend::NetworkId) { return true; }

bool OpenClBackendContext::AfterLoadNetwork(backend::NetworkId) {
  std::shared_ptr<OpenClDevice> device;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    device = device_;
  }
  return !device || clFinish(device->Queue()) == CL_SUCCESS;
}

bool OpenClBackendContext::BeforeUnloadNetwork(backend::NetworkId) { return true; }

bool OpenClBackendContext::AfterUnloadNetwork(backend::NetworkId) { return true; }

}  // namespace backplane::opencl
