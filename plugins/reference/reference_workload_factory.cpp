#include "reference_workload_factory.hpp"

#include <backplane/exception.hpp>

#include <utility>

namespace backplane::reference {

ReferenceWorkloadFactory::ReferenceWorkloadFactory(std::string backend_label)
    : backend_label_(std::move(backend_label)) {}

std::unique_ptr<backend::IWorkload> ReferenceWorkloadFactory::CreateWorkload(
    const backend::ILayerView& layer) {
  throw Exception(ErrorCode::kUnsupported, backend_label_ + " provides no kernel for " +
                                               backend::ToString(layer.GetType()) + " (layer '" +
                                               layer.GetName() + "')");
}

}  // namespace backplane::reference
