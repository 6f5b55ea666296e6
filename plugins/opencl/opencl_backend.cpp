#include "opencl_backend.hpp"

#include "device_selection.hpp"
#include "fusion.hpp"
#include "opencl_backend_context.hpp"
#include "opencl_buffer_handle_factory.hpp"
#include "opencl_device_creation.hpp"
#include "opencl_settings.hpp"
#include "opencl_workload_factory.hpp"
#include "ops/opencl_ops.hpp"

#include <backplane/exception.hpp>

#ifndef BACKPLANE_BACKEND_VERSION
#error "BACKPLANE_BACKEND_VERSION is defined by backplane_add_backend() (the plugin version)"
#endif

namespace backplane::opencl {

namespace {

// The environment's settings, or why they are unusable (a malformed variable).
struct EnvironmentChoice {
  DeviceChoice choice;
  OpenClSettings settings;
};

EnvironmentChoice ChooseFromEnvironment() {
  EnvironmentChoice result;
  try {
    result.settings = SettingsFromEnvironment();
  } catch (const std::exception& error) {
    result.choice.reason = error.what();
    return result;
  }
  result.choice = ChooseDevice(EnumerateDevices(), result.settings.policy);
  return result;
}

}  // namespace

BackendId OpenClBackend::GetId() const { return BackendId(kOpenClBackendId); }

bool OpenClBackend::IsAvailable(backend::IBackendContext* context, std::string* reason) const {
  const auto* ours = dynamic_cast<const OpenClBackendContext*>(context);
  try {
    const DeviceChoice choice =
        ours ? ChooseDevice(EnumerateDevices(), ours->Settings().policy) : ChooseFromEnvironment().choice;
    if (choice.index >= 0) {
      if (reason) reason->clear();
      return true;
    }
    if (reason) *reason = choice.reason;
  } catch (const std::exception& error) {
    if (reason) *reason = error.what();
  }
  return false;
}

std::vector<backend::DeviceInfo> OpenClBackend::GetDevices() const {
  DevicePolicy policy;
  try {
    policy = SettingsFromEnvironment().policy;
  } catch (const std::exception& error) {
    backend::DeviceInfo invalid;
    invalid.name = "no OpenCL device";
    invalid.kind = backend::DeviceKind::kGpu;
    invalid.available = false;
    invalid.reason = error.what();
    return {invalid};
  }
  return DescribeDevices(EnumerateDevices(), policy);
}

backend::OptimizationViews OpenClBackend::OptimizeSubgraph(const backend::SubgraphView& subgraph) const {
  return FuseSubgraph(subgraph);
}

backend::BackendCapabilities OpenClBackend::GetCapabilities() const {
  backend::BackendCapabilities capabilities;
  capabilities.device_kind = backend::DeviceKind::kGpu;
  capabilities.data_types = {DataType::kFloat32, DataType::kInt64};
  capabilities.layer_types = Ops().LayerTypes();
  capabilities.values = {{"ProtectedContentAllocation", false}};
  return capabilities;
}

std::shared_ptr<backend::ILayerSupport> OpenClBackend::GetLayerSupport() const {
  return std::make_shared<backend::OpTableLayerSupport<OpKernel>>(Ops());
}

std::vector<backend::OptionSpec> OpenClBackend::GetOptionSpecs() const {
  using Type = backend::OptionSpec::Type;
  return {
      {"allow_cpu_device", Type::kBoolean, "0",
       "may run on a CPU OpenCL device (PoCL) when there is no GPU; default: BACKPLANE_OPENCL_ALLOW_CPU, else 0"},
      {"device", Type::kString, "",
       "device index (as listed) or name substring; default: BACKPLANE_OPENCL_DEVICE, else the first GPU"},
      {"cache_dir", Type::kString, "",
       "program binary cache folder; default: BACKPLANE_OPENCL_CACHE_DIR, else ~/.cache/backplane/opencl"},
      {"tune", Type::kBoolean, "0",
       "run CLBlast's GEMM tuner once on a device with no tuned parameters cached (about 10 minutes on a CPU "
       "device), then cache them beside the programs; default: BACKPLANE_OPENCL_TUNE, else 0"},
      {"layer_sync", Type::kBoolean, "0",
       "wait for the device after every layer, so sdk-run --per-layer shows each layer's device time (slower "
       "runs); default: BACKPLANE_OPENCL_LAYER_SYNC, else 0"},
      {"kernels", Type::kString, "auto",
       "gpu: matrix products on CLBlast, one element per work-item; cpu: GpuOpenCl's register-tiled GEMM, a row per "
       "work-item (faster on CPU OpenCL devices); auto: by the device's kind; default: BACKPLANE_OPENCL_KERNELS, "
       "else auto"},
      {"threads", Type::kInteger, "0", "no effect (the OpenCL device schedules its own work); a count >= 0"},
  };
}

std::unique_ptr<backend::IWorkloadFactory> OpenClBackend::CreateWorkloadFactory(
    const std::shared_ptr<backend::IMemoryManager>& /*memory_manager*/, backend::IBackendContext* context) const {
  auto* ours = dynamic_cast<OpenClBackendContext*>(context);
  const OpenClSettings settings = ours ? ours->Settings() : SettingsFromEnvironment();
  std::shared_ptr<OpenClDevice> device = ours ? ours->Device() : CreateChosenDevice(settings);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    last_device_ = device;
  }
  return std::make_unique<OpenClWorkloadFactory>(Label(), std::move(device), settings.layer_sync);
}

std::unique_ptr<backend::IBackendContext> OpenClBackend::CreateBackendContext(
    const backend::BackendConfig& config) const {
  return std::make_unique<OpenClBackendContext>(SettingsFromOptions(config.options), config.log);
}

void OpenClBackend::RegisterTensorHandleFactories(backend::ITensorHandleFactoryRegistry& registry) const {
  std::shared_ptr<OpenClDevice> device;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    device = last_device_;
  }
  if (device) {
    registry.RegisterFactory(std::make_unique<OpenClBufferHandleFactory>(std::move(device)));
    return;
  }
  const EnvironmentChoice chosen = ChooseFromEnvironment();
  const bool unified = chosen.choice.index >= 0 &&
                       EnumerateDevices().devices[static_cast<std::size_t>(chosen.choice.index)].host_unified_memory;
  registry.RegisterFactory(std::make_unique<OpenClBufferHandleFactory>(
      unified, "this GpuOpenCl instance has created no workload factory, so it has no device" +
                   (chosen.choice.index < 0 ? " (" + chosen.choice.reason + ")" : std::string())));
}

std::vector<backend::FactoryId> OpenClBackend::GetHandleFactoryPreferences() const { return {kBufferFactoryId}; }

std::string OpenClBackend::Label() { return std::string(kOpenClBackendId) + " " + BACKPLANE_BACKEND_VERSION; }

}  // namespace backplane::opencl
