// A network optimized and loaded into a runtime, with what Optimize reported and how long the
// two steps took. Unloads itself.
#pragma once

#include <backplane/runtime.hpp>

#include <string>
#include <utility>
#include <vector>

namespace backplane::sdk_run {

struct PlacementReport {
  std::vector<LayerPlacement> layers;  // execution order
  std::vector<EdgeReport> edges;       // every edge, direct ones included
  std::size_t copies = 0;
  std::vector<std::string> pass_log;
};

// Throws ToolError (kUsage) when a pin of `options` names no layer of `network`.
void RequirePinnedLayers(const Network& network, const OptimizeOptions& options);

// Move-only. Unloads the network from the runtime on destruction; the runtime must outlive it.
class LoadedNetwork {
 public:
  // Optimizes `network` with `options`, then loads it. Throws ToolError (kUsage) when a pin
  // names no layer of the network, and (kRuntimeFailure) with the runtime's message when
  // placement or loading fails.
  LoadedNetwork(Runtime& runtime, const Network& network, const OptimizeOptions& options);
  // The same, emptying `network` once it is optimized: its graph is not needed to load (the
  // loaded network shares its weights), so the load's peak memory does not hold it.
  LoadedNetwork(Runtime& runtime, Network&& network, const OptimizeOptions& options);
  ~LoadedNetwork();
  LoadedNetwork(LoadedNetwork&& other) noexcept;
  LoadedNetwork& operator=(LoadedNetwork&&) = delete;
  LoadedNetwork(const LoadedNetwork&) = delete;
  LoadedNetwork& operator=(const LoadedNetwork&) = delete;

  Runtime& runtime() const { return *runtime_; }
  NetworkId id() const { return id_; }
  const NetworkSignature& signature() const { return signature_; }
  const PlacementReport& placement() const { return placement_; }
  // Moves the placement report out (a network's size in records): placement() is empty after.
  PlacementReport TakePlacement() { return std::move(placement_); }
  double optimize_ms() const { return optimize_ms_; }
  double load_ms() const { return load_ms_; }

 private:
  // Both public constructors: `release`, when given, is emptied after optimizing.
  LoadedNetwork(Runtime& runtime, const Network& network, const OptimizeOptions& options, Network* release);

  Runtime* runtime_;
  NetworkId id_ = 0;
  bool loaded_ = false;
  NetworkSignature signature_;
  PlacementReport placement_;
  double optimize_ms_ = 0;
  double load_ms_ = 0;
};

}  // namespace backplane::sdk_run
