// Backend-specific optimization of subgraphs (spec 001 "The Optimizations").
#pragma once

#include <backplane/backend/layer.hpp>

#include <memory>
#include <string>
#include <vector>

namespace backplane::backend {

// A connected set of layers the optimizer placed on one backend, in topological order.
// The views are owned by the runtime and valid only during OptimizeSubgraph.
struct SubgraphView {
  std::vector<const ILayerView*> layers;
};

// The backend takes over `replaced` as one unit: the runtime swaps those layers for a single
// PreCompiled layer carrying `descriptor` (backend-defined, shared with the runtime), whose
// workload the same backend's factory creates. Its inputs are the tensors entering `replaced`
// from outside, each once, in the order the layers of `replaced` (as listed) read them; its
// outputs are the tensors read outside, in the same order.
struct Substitution {
  SubgraphView replaced;
  std::string name;  // name of the new layer, e.g. "conv1+relu1"
  std::shared_ptr<const LayerDescriptor> descriptor;
};

// The three lists of spec 001: substitutions applied, failed parts re-placed on the next
// preferred backend, untouched parts kept unoptimized on this backend.
struct OptimizationViews {
  std::vector<Substitution> substitutions;
  std::vector<SubgraphView> failed;
  std::vector<SubgraphView> untouched;
};

}  // namespace backplane::backend
