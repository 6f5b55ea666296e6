// Typed access to a workload's tensors, and the checks most ops' support functions share.
#pragma once

#include <backplane/backend/layer.hpp>
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

// True when the layer has `inputs` inputs (a range: [min, max]) and `outputs` outputs, else
// false with a reason.
bool HasArity(const backend::ILayerView& layer, std::size_t min_inputs, std::size_t max_inputs,
              std::size_t outputs, std::string& reason);

// True when every input and output is f32, else false with a reason naming the first that
// is not ("input 1 is i64; CpuRef runs MatMul on f32 only").
bool AllFloat32(const backend::ILayerView& layer, std::string& reason);

// Normalizes a possibly negative axis against `rank`; false when out of range.
bool NormalizeAxis(std::int64_t axis, std::size_t rank, std::size_t& out);

}  // namespace backplane::reference
