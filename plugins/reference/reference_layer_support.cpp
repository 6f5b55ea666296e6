#include "reference_layer_support.hpp"

#include <utility>

namespace backplane::reference {

ReferenceLayerSupport::ReferenceLayerSupport(std::string backend_label)
    : backend_label_(std::move(backend_label)) {}

bool ReferenceLayerSupport::IsLayerSupported(const backend::ILayerView& layer,
                                             std::string* reason) const {
  if (reason) {
    *reason = backend_label_ + " provides no kernel for " + backend::ToString(layer.GetType());
  }
  return false;
}

}  // namespace backplane::reference
