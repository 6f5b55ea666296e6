// CpuExample's workloads: one per supported layer, created once when a network is loaded and
// then run by any number of execution contexts at once (they keep no per-run state).
#pragma once

#include <backplane/backend/workload.hpp>

#include <memory>

namespace example {

// The workload of an ElementwiseBinary Add or Mul, or an Activation Relu layer the op table
// accepted (example_backend.hpp). Throws std::bad_alloc only.
std::unique_ptr<backplane::backend::IWorkload> CreateElementwiseWorkload(const backplane::backend::ILayerView& layer);

// Creates the workload of a layer the op table accepts; throws backplane::Exception
// (kUnsupported, "CpuExample cannot run layer '<name>': <why>") for any other.
class ExampleWorkloadFactory final : public backplane::backend::IWorkloadFactory {
 public:
  std::unique_ptr<backplane::backend::IWorkload> CreateWorkload(
      const backplane::backend::ILayerView& layer) override;
};

}  // namespace example
