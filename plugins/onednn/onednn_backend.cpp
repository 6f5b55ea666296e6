#include "onednn_backend.hpp"

#include "dnnl_compat.hpp"
#include "fusion/fusion.hpp"
#include "onednn_backend_context.hpp"
#include "onednn_tensor_handle.hpp"
#include "onednn_workload_factory.hpp"
#include "ops/onednn_ops.hpp"

#ifndef BACKPLANE_BACKEND_VERSION
#error "BACKPLANE_BACKEND_VERSION is defined by backplane_add_backend() (the plugin version)"
#endif

namespace backplane::onednn {

BackendId OneDnnBackend::GetId() const { return BackendId(kOneDnnBackendId); }

std::string OneDnnBackend::Label() { return std::string(kOneDnnBackendId) + " " + BACKPLANE_BACKEND_VERSION; }

std::vector<backend::DeviceInfo> OneDnnBackend::GetDevices() const {
  backend::DeviceInfo cpu;
  cpu.kind = backend::DeviceKind::kCpu;
  std::string fast_math = "fast_math available (bf16 convolutions and matmuls)";
  std::string why;
  if (!FastMathAvailable(&why)) fast_math = "fast_math unavailable: " + why;
  cpu.name = "host CPU via oneDNN " + compat::VersionString() + " (ISA " + compat::EffectiveIsaName() + ", " +
             std::to_string(CoreCount()) + " threads by default; " + fast_math + ")";
  return {cpu};
}

backend::BackendCapabilities OneDnnBackend::GetCapabilities() const {
  backend::BackendCapabilities capabilities;
  capabilities.device_kind = backend::DeviceKind::kCpu;
  capabilities.data_types = {DataType::kFloat32};
  capabilities.layer_types = Ops().LayerTypes();
  capabilities.values = {{"ProtectedContentAllocation", false}};
  return capabilities;
}

std::shared_ptr<backend::ILayerSupport> OneDnnBackend::GetLayerSupport() const {
  return std::make_shared<backend::OpTableLayerSupport<OpKernel>>(Ops());
}

backend::OptimizationViews OneDnnBackend::OptimizeSubgraph(const backend::SubgraphView& subgraph) const {
  return FuseSubgraph(subgraph);
}

std::vector<backend::OptionSpec> OneDnnBackend::GetOptionSpecs() const {
  using Type = backend::OptionSpec::Type;
  return {
      {"threads", Type::kInteger, std::to_string(CoreCount()),
       "oneDNN threads per running workload, at least 1 (default: every core)"},
      {"fast_math", Type::kBoolean, "0",
       "bf16 convolutions, pooling and constant-weight matmuls on CPUs with native bf16 (AVX512-BF16, AMX)"},
      {"adaptive_threads", Type::kString, "1",
       "1: one thread per primitive while other work keeps the cores busy; 0: never; always: always"},
      {"winograd", Type::kBoolean, "1",
       "3x3 stride-1 convolutions may use Winograd F(2x2,3x3): faster runs; 0: faster loads (no weight transform)"},
  };
}

std::unique_ptr<backend::IWorkloadFactory> OneDnnBackend::CreateWorkloadFactory(
    const std::shared_ptr<backend::IMemoryManager>& /*memory_manager*/, backend::IBackendContext* context) const {
  auto* ours = dynamic_cast<OneDnnBackendContext*>(context);
  if (!ours) return std::make_unique<OneDnnWorkloadFactory>(DefaultSettings(), nullptr, nullptr);
  return std::make_unique<OneDnnWorkloadFactory>(ours->GetSettings(), &ours->Gate(), &ours->Load());
}

std::unique_ptr<backend::IBackendContext> OneDnnBackend::CreateBackendContext(
    const backend::BackendConfig& config) const {
  const Settings settings = ParseSettings(config.options);
  std::string why;
  if (settings.fast_math && config.log && !FastMathAvailable(&why) &&
      config.log->IsEnabled(LogLevel::kWarning, LogCategory::kPlugin)) {
    config.log->Write(LogLevel::kWarning, LogCategory::kPlugin, Label() + ": " + why);
  }
  return std::make_unique<OneDnnBackendContext>(settings);
}

void OneDnnBackend::RegisterTensorHandleFactories(backend::ITensorHandleFactoryRegistry& registry) const {
  registry.RegisterFactory(std::make_unique<OneDnnTensorHandleFactory>());
}

std::vector<backend::FactoryId> OneDnnBackend::GetHandleFactoryPreferences() const {
  return {kBlockedFactoryId, backend::kHostFactoryId};
}

}  // namespace backplane::onednn
