// Which layers CpuOneDnn runs: those its op table (ops/op_table.cpp) accepts, with the op's
// reason when not. Thread-safe (holds a label only); never throws.
#pragma once

#include <backplane/backend/layer_support.hpp>

#include <string>

namespace backplane::onednn {

class OneDnnLayerSupport final : public backend::ILayerSupport {
 public:
  explicit OneDnnLayerSupport(std::string backend_label) : backend_label_(std::move(backend_label)) {}
  bool IsLayerSupported(const backend::ILayerView& layer, std::string* reason) const override;

 private:
  std::string backend_label_;
};

}  // namespace backplane::onednn
