#include "reference_workload_factory.hpp"

#include "ops/reference_ops.hpp"

namespace backplane::reference {

std::unique_ptr<backend::IWorkload> ReferenceWorkloadFactory::CreateWorkload(const backend::ILayerView& layer) {
  return Ops().SupportingOrThrow(layer).create(layer);
}

}  // namespace backplane::reference
