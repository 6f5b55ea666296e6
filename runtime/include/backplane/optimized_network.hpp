// Optimize: a Network placed on backends, ready to load. See Runtime::Optimize.
#pragma once

#include <backplane/backend/layer.hpp>
#include <backplane/backend/tensor_handle.hpp>
#include <backplane/backend_id.hpp>
#include <backplane/runtime_export.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace backplane {

namespace detail {
struct ImplAccess;  // defined inside the runtime only (runtime/src/impl_access.hpp)
}  // namespace detail

struct OptimizeOptions {
  // Backends in order of preference. Empty: every registered, available backend, in the
  // default preference order (Runtime::GetBackends).
  std::vector<BackendId> backends;
  // No fallback: every layer must run on the first backend of `backends` (or its pin).
  bool strict = false;
  // Layer name -> backend; adds to (and overrides) Network::PinLayer.
  std::map<std::string, BackendId> pins;
  // Graph passes (constant folding, batch-norm folding, composite-op recognition, dead-layer
  // removal) and backend fusions through OptimizeSubgraph.
  bool optimize_graph = true;
};

// Where one layer runs, and why there.
struct LayerPlacement {
  std::string layer;
  backend::LayerType type = backend::LayerType::kInput;
  BackendId backend;    // empty for Input/Output/Constant layers (no workload)
  std::string reason;   // "pinned", "first preferred backend that supports it",
                        // "CpuX: <why not>; placed on CpuRef", "fused into conv1+relu1 by CpuX"
};

// How the tensor on one edge gets from its producer's backend to a consumer's (spec 002).
enum class EdgeStrategy {
  kDirect,        // a tensor-handle factory both sides can use: no copy
  kExportImport,  // the producer's memory is imported by the consumer: no copy
  kCopy,          // a copy between two handles
};
BACKPLANE_RUNTIME_API const char* ToString(EdgeStrategy strategy);  // "direct", "export_import", "copy"

struct EdgeReport {
  std::string producer;           // layer name
  std::string consumer;           // layer name
  EdgeStrategy strategy = EdgeStrategy::kDirect;
  backend::FactoryId factory;     // the producer side's factory
};

// Move-only value. Holds the placed graph until Runtime::LoadNetwork takes it. A moved-from
// object throws Exception (kInvalidArgument) from every method.
class BACKPLANE_RUNTIME_API OptimizedNetwork {
 public:
  OptimizedNetwork();
  ~OptimizedNetwork();
  OptimizedNetwork(OptimizedNetwork&&) noexcept;
  OptimizedNetwork& operator=(OptimizedNetwork&&) noexcept;

  // Every layer that survived the graph passes, in execution order.
  const std::vector<LayerPlacement>& GetPlacement() const;
  const std::vector<EdgeReport>& GetEdges() const;
  std::size_t GetCopyCount() const;
  // What the graph passes did ("folded batch norm bn1 into conv1", ...).
  const std::vector<std::string>& GetPassLog() const;
  // A readable multi-line report of all of the above.
  std::string Describe() const;

  // Runtime-private (defined in runtime/src/graph/optimizer.hpp).
  struct Impl;

 private:
  friend struct detail::ImplAccess;
  explicit OptimizedNetwork(std::unique_ptr<Impl>&& impl);
  std::unique_ptr<Impl> impl_;  // null after a move
};

}  // namespace backplane
