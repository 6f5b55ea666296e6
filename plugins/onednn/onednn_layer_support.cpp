#include "onednn_layer_support.hpp"

#include "ops/onednn_ops.hpp"

namespace backplane::onednn {

bool OneDnnLayerSupport::IsLayerSupported(const backend::ILayerView& layer, std::string* reason) const {
  std::string why;
  const OpKernel* op = FindOpKernel(layer.GetType());
  if (!op) {
    why = backend_label_ + " provides no kernel for " + backend::ToString(layer.GetType());
  } else if (IsSupported(*op, layer, why)) {
    return true;
  } else {
    why = backend_label_ + " cannot run layer '" + layer.GetName() + "': " + why;
  }
  if (reason) *reason = std::move(why);
  return false;
}

}  // namespace backplane::onednn
