// CpuExample's workloads: one per supported layer, created once when a network is loaded and
// then run by any number of execution contexts at once (they keep no per-run state).
#pragma once

#include <backplane/backend/workload.hpp>

#include <memory>

namespace example {

// Creates the workload of a layer IsSupported accepts; throws backplane::Exception
// (kUnsupported) naming the layer for any other.
class ExampleWorkloadFactory final : public backplane::backend::IWorkloadFactory {
 public:
  std::unique_ptr<backplane::backend::IWorkload> CreateWorkload(
      const backplane::backend::ILayerView& layer) override;
};

}  // namespace example
