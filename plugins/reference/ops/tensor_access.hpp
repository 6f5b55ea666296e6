// Typed access to a workload's tensors.
#pragma once

#include <backplane/backend/layer.hpp>
#include <backplane/backend/op_geometry.hpp>
#include <backplane/backend/workload.hpp>
#include <backplane/types.hpp>

#include <string>

namespace backplane::reference {

// Host pointer to input/output `index` for this run (the handle's Map(); host handles map
// for free and need no Unmap).
template <typename T>
const T* Input(const backend::WorkloadArgs& args, std::size_t index) {
  return static_cast<const T*>(args.inputs[index]->Map());
}
template <typename T>
T* Output(const backend::WorkloadArgs& args, std::size_t index) {
  return static_cast<T*>(args.outputs[index]->Map());
}

// The layer's descriptor as its concrete type. Only after checking the layer's type: the
// runtime guarantees the descriptor of a layer of type D::kType is a D.
template <typename Descriptor>
const Descriptor& DescriptorOf(const backend::ILayerView& layer) {
  return static_cast<const Descriptor&>(*layer.GetDescriptor());
}

// The SDK's axis normalization (backplane/backend/op_geometry.hpp), used unqualified.
using backend::NormalizeAxis;

}  // namespace backplane::reference
