// Creates CpuRef's workloads for one loaded network: each layer's op table row
// (ops/reference_ops.hpp) builds its workload.
#pragma once

#include <backplane/backend/workload.hpp>

#include <memory>

namespace backplane::reference {

// Stateless. Not thread-safe by contract (the runtime calls a factory from one thread).
class ReferenceWorkloadFactory final : public backend::IWorkloadFactory {
 public:
  // Throws backplane::Exception: kUnsupported "CpuRef cannot run layer '<name>': <why>" when the
  // op table refuses the layer; whatever the op's create throws.
  std::unique_ptr<backend::IWorkload> CreateWorkload(const backend::ILayerView& layer) override;
};

}  // namespace backplane::reference
