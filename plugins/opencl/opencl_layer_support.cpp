#include "opencl_layer_support.hpp"

#include "ops/opencl_ops.hpp"

#include <utility>

namespace backplane::opencl {

OpenClLayerSupport::OpenClLayerSupport(std::string backend_label) : backend_label_(std::move(backend_label)) {}

bool OpenClLayerSupport::IsLayerSupported(const backend::ILayerView& layer, std::string* reason) const {
  std::string why;
  const OpKernel* op = FindOpKernel(layer.GetType());
  if (!op) {
    why = backend_label_ + " provides no kernel for " + backend::ToString(layer.GetType());
  } else if (IsSupported(*op, layer, why)) {
    return true;
  } else {
    why = backend_label_ + ": " + why;
  }
  if (reason) *reason = std::move(why);
  return false;
}

}  // namespace backplane::opencl
