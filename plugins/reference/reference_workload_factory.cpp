#include "reference_workload_factory.hpp"

#include "ops/reference_ops.hpp"

#include <backplane/exception.hpp>

#include <utility>

namespace backplane::reference {

ReferenceWorkloadFactory::ReferenceWorkloadFactory(std::string backend_label)
    : backend_label_(std::move(backend_label)) {}

std::unique_ptr<backend::IWorkload> ReferenceWorkloadFactory::CreateWorkload(
    const backend::ILayerView& layer) {
  const OpKernel* op = FindOpKernel(layer.GetType());
  std::string reason;
  if (!op) {
    reason = "provides no kernel for " + std::string(backend::ToString(layer.GetType()));
  } else if (IsSupported(*op, layer, reason)) {
    return op->create(layer);
  }
  throw Exception(ErrorCode::kUnsupported,
                  backend_label_ + " cannot run layer '" + layer.GetName() + "': " + reason);
}

}  // namespace backplane::reference
