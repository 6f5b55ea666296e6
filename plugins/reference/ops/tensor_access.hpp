// Typed access to a workload's tensors, and the support checks the op table's rows share.
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

// The support checks the op table's rows share. The table runs the SDK's op schema
// (backplane/backend/op_schema.hpp) before them, so they test only CpuRef's own limits.
//
// True when every input is f32, else false with a reason naming the first that is not
// ("input 1 is i64; CpuRef runs MatMul on f32 only"). The schema gives the outputs of the ops
// using it input 0's type, so they are f32 too.
bool AllFloat32(const backend::ILayerView& layer, std::string& reason);

}  // namespace backplane::reference
