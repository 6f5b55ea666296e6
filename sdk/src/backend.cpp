// Out-of-line destructors (key functions: each interface's type information is emitted here,
// once per library that compiles this file: libbackplane_sdk for the runtime, and each plugin's
// private copy of the backend author kit; only C crosses between them) and IBackend's defaults.
#include <backplane/backend/backend.hpp>

#include <array>

namespace backplane::backend {

ILayerSupport::~ILayerSupport() = default;
IMemoryManager::~IMemoryManager() = default;
ITensorHandle::~ITensorHandle() = default;
ITensorHandleFactory::~ITensorHandleFactory() = default;
ITensorHandleFactoryRegistry::~ITensorHandleFactoryRegistry() = default;
IWorkload::~IWorkload() = default;
std::size_t IWorkload::GetScratchSize() const { return 0; }
WorkloadInfo IWorkload::GetInfo() const { return {}; }
IWorkloadFactory::~IWorkloadFactory() = default;
IBackendContext::~IBackendContext() = default;
IBackend::~IBackend() = default;

bool IBackend::IsAvailable(IBackendContext*, std::string* reason) const {
  if (reason) reason->clear();
  return true;
}

std::vector<DeviceInfo> IBackend::GetDevices() const { return {}; }

std::vector<OptionSpec> IBackend::GetOptionSpecs() const { return {}; }

OptimizationViews IBackend::OptimizeSubgraph(const SubgraphView& subgraph) const {
  OptimizationViews views;
  views.untouched.push_back(subgraph);
  return views;
}

std::shared_ptr<IMemoryManager> IBackend::CreateMemoryManager() const { return nullptr; }

std::unique_ptr<IBackendContext> IBackend::CreateBackendContext(const BackendConfig&) const { return nullptr; }

void IBackend::RegisterTensorHandleFactories(ITensorHandleFactoryRegistry&) const {}

std::vector<FactoryId> IBackend::GetHandleFactoryPreferences() const { return {}; }

namespace {
constexpr std::array<const char*, 3> kDeviceKindNames{"cpu", "gpu", "accelerator"};
}

const char* ToString(DeviceKind kind) { return kDeviceKindNames[static_cast<int>(kind)]; }

std::optional<DeviceKind> DeviceKindFromString(std::string_view name) {
  for (std::size_t i = 0; i < kDeviceKindNames.size(); ++i) {
    if (name == kDeviceKindNames[i]) return static_cast<DeviceKind>(i);
  }
  return std::nullopt;
}

}  // namespace backplane::backend
