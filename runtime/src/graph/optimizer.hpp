// Optimize: graph passes, placement on backends, backend subgraph optimizations and the
// tensor-handle strategy, turning a Network into an OptimizedNetwork.
#pragma once

#include "graph/graph.hpp"

#include <backplane/backend/backend.hpp>
#include <backplane/logging.hpp>
#include <backplane/optimized_network.hpp>

#include <map>
#include <memory>
#include <vector>

namespace backplane::graph {

// A backend as the optimizer sees it: one instance for the whole optimization.
struct PlacementBackend {
  BackendId id;
  std::unique_ptr<backend::IBackend> instance;      // null when unavailable
  std::shared_ptr<backend::ILayerSupport> support;  // null when unavailable
  bool available = false;
  std::string unavailable_reason;
  // Factory ids in preference order (never empty: kHostFactoryId when it names none) and the
  // properties of every factory it registers (plus the host factory).
  std::vector<backend::FactoryId> preferences;
  std::map<backend::FactoryId, backend::TensorHandleFactoryProperties> factories;
};

// Builds the PlacementBackend of `instance`, available as the registry found it at registration
// (`available`, `unavailable_reason`): asks it for its layer support and its tensor-handle
// factories. Never throws for a failing backend: it becomes unavailable with
// the reason.
PlacementBackend DescribeBackend(BackendId id, std::unique_ptr<backend::IBackend> instance, bool available,
                                 std::string unavailable_reason);

}  // namespace backplane::graph

struct backplane::OptimizedNetwork::Impl {
  // The plugin libraries of the backends it was optimized for, declared first so they go
  // last: fused layers carry descriptors whose code lives in those libraries.
  std::vector<std::shared_ptr<const void>> libraries;
  graph::Graph graph;
  std::vector<LayerId> order;    // live layers in execution order
  std::vector<LayerId> inputs;   // Input layers, in network order
  std::vector<LayerId> outputs;  // Output layers, in network order
  std::vector<LayerPlacement> placement;
  std::vector<EdgeReport> edges;
  std::size_t copies = 0;
  std::vector<std::string> pass_log;
};

namespace backplane::graph {

// The placed graph of `network`, for the caller to wrap (runtime.cpp: only it makes application
// objects). `backends` in preference order (the first is the most preferred). Throws as
// Runtime::Optimize documents. Logs to `log` (category optimize). Never returns null.
std::unique_ptr<OptimizedNetwork::Impl> Optimize(const Network::Impl& network, const OptimizeOptions& options,
                                                 std::vector<PlacementBackend>& backends, ILogSink& log);

// The readable multi-line report of OptimizedNetwork::Describe: placement, copies, passes.
std::string Describe(const OptimizedNetwork::Impl& network);

}  // namespace backplane::graph
