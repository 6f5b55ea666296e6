// Which layers CpuRef can run. This release has no kernels, so every answer is "no", with a
// reason naming the layer type.
#pragma once

#include <backplane/backend/layer_support.hpp>

#include <string>

namespace backplane::reference {

// Immutable after construction; thread-safe. Never throws except on out-of-memory.
class ReferenceLayerSupport final : public backend::ILayerSupport {
 public:
  // `backend_label` ("CpuRef 0.1.0") starts every reason.
  explicit ReferenceLayerSupport(std::string backend_label);

  // Always false; `reason` receives "<label> provides no kernel for <LayerType>".
  bool IsLayerSupported(const backend::ILayerView& layer, std::string* reason) const override;

 private:
  std::string backend_label_;
};

}  // namespace backplane::reference
