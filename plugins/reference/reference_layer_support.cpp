#include "reference_layer_support.hpp"

#include "ops/reference_ops.hpp"

#include <utility>

namespace backplane::reference {

ReferenceLayerSupport::ReferenceLayerSupport(std::string backend_label)
    : backend_label_(std::move(backend_label)) {}

bool ReferenceLayerSupport::IsLayerSupported(const backend::ILayerView& layer,
                                             std::string* reason) const {
  std::string why;
  const OpKernel* op = FindOpKernel(layer.GetType());
  if (!op) {
    why = backend_label_ + " provides no kernel for " + backend::ToString(layer.GetType());
  } else if (IsSupported(*op, layer, why)) {
    return true;
  }
  if (reason) *reason = std::move(why);
  return false;
}

}  // namespace backplane::reference
