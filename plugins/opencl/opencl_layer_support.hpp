// Which layers GpuOpenCl can run: the op table's answer (ops/opencl_ops.hpp), with a reason
// naming what is unsupported.
#pragma once

#include <backplane/backend/layer_support.hpp>

#include <string>

namespace backplane::opencl {

// Immutable after construction; thread-safe. Never throws except on out-of-memory.
class OpenClLayerSupport final : public backend::ILayerSupport {
 public:
  // `backend_label` ("GpuOpenCl 0.1.0") starts every reason.
  explicit OpenClLayerSupport(std::string backend_label);

  // True when the op table has the layer's type and its check accepts the layer; otherwise
  // false with the op's reason, or "<label> provides no kernel for <LayerType>".
  bool IsLayerSupported(const backend::ILayerView& layer, std::string* reason) const override;

 private:
  std::string backend_label_;
};

}  // namespace backplane::opencl
