// The runtime's layers as a plugin sees them: an ILayerView turned into a BpLayer
// (backend_c_api.h), built per call.
#pragma once

#include <backplane/backend/layer.hpp>
#include <backplane/backend/op_attributes.hpp>
#include <backplane/backend_c_api.h>

#include <cstddef>
#include <string>
#include <vector>

namespace backplane::loading {

// The C form of a tensor info; `dims` points into `info`, valid as long as it.
BpTensorInfo ToC(const TensorInfo& info);

// The C view of one layer: names, tensor infos, attributes, constant inputs, producers and
// consumer counts. Everything in Get() points into this object or into `view` (tensor infos,
// the descriptor, constant data), so it is valid while both live and `view` is unchanged.
// For kPreCompiled the view's descriptor must be a backend::PreCompiledPayload (what the
// optimizer stores for a substitution); its payload goes to the plugin unchanged. Not copyable
// or movable (it points into itself). Throws Exception (kInternal) for a PreCompiled layer
// without a payload, std::bad_alloc, and what the view throws.
class CLayer {
 public:
  explicit CLayer(const backend::ILayerView& view);
  CLayer(const CLayer&) = delete;
  CLayer& operator=(const CLayer&) = delete;

  const BpLayer* Get() const { return &layer_; }

 private:
  BpLayer layer_{};
  std::vector<BpTensorInfo> inputs_;
  std::vector<BpTensorInfo> outputs_;
  backend::CAttributes attributes_;
  BpPreCompiledAttributes precompiled_{};
  std::vector<const void*> constants_;
  std::vector<std::string> producer_names_;
  std::vector<BpProducer> producers_;
  std::vector<std::size_t> consumer_counts_;
};

}  // namespace backplane::loading
