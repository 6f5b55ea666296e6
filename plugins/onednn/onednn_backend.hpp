// CpuOneDnn: the oneDNN CPU backend. Convolutions, matrix products, pooling, normalization and
// elementwise ops run as oneDNN primitives created once at load (weights reordered once);
// activations stay in oneDNN's blocked layouts between its layers (onednn_tensor_handle.hpp);
// chains are fused into post-ops (fusion/fusion.hpp). Options: onednn_backend_context.hpp.
#pragma once

#include <backplane/backend/backend.hpp>

#include <memory>
#include <string>
#include <vector>

namespace backplane::onednn {

inline constexpr const char* kOneDnnBackendId = "CpuOneDnn";

// Stateless: every method is thread-safe, and what it returns does not refer back to it.
class OneDnnBackend final : public backend::IBackend {
 public:
  BackendId GetId() const override;
  // The host CPU: oneDNN's version, the ISA it dispatches to, the core count, and whether
  // fast_math can take effect with this oneDNN.
  std::vector<backend::DeviceInfo> GetDevices() const override;
  backend::BackendCapabilities GetCapabilities() const override;
  std::shared_ptr<backend::ILayerSupport> GetLayerSupport() const override;
  backend::OptimizationViews OptimizeSubgraph(const backend::SubgraphView& subgraph) const override;
  // "threads", "fast_math" and "adaptive_threads" (onednn_backend_context.hpp); the threads
  // default is this machine's core count.
  std::vector<backend::OptionSpec> GetOptionSpecs() const override;
  // With a OneDnnBackendContext: its settings and the runtime's thread gate. Without one (null:
  // the optimizer folding constants; or another backend's): defaults (all cores, no fast math)
  // and a thread gate of its own.
  std::unique_ptr<backend::IWorkloadFactory> CreateWorkloadFactory(
      const std::shared_ptr<backend::IMemoryManager>& memory_manager,
      backend::IBackendContext* context) const override;
  // Parses config.options (ParseSettings); throws backplane::Exception (kInvalidArgument) on a
  // bad value. Warns on config.log when fast_math=1 cannot take effect on this CPU.
  std::unique_ptr<backend::IBackendContext> CreateBackendContext(const backend::BackendConfig& config) const override;
  void RegisterTensorHandleFactories(backend::ITensorHandleFactoryRegistry& registry) const override;
  // Its blocked factory, then host memory (edges to host backends are direct).
  std::vector<backend::FactoryId> GetHandleFactoryPreferences() const override;

  // "CpuOneDnn 0.1.0".
  static std::string Label();
};

}  // namespace backplane::onednn
