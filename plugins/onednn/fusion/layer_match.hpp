// Small questions about the layers of a subgraph that the fusion matchers share (chain
// grammar, folded data movement, channel gates): a layer's type, a constant scalar input, and
// the connections between layers (Backend API 1.1). Pure functions of the layer views;
// thread-safe as they are.
#pragma once

#include <backplane/backend/layer.hpp>
#include <backplane/descriptors.hpp>

#include <cstddef>
#include <cstring>

namespace backplane::onednn::fusion {

// The value of a constant f32 scalar (any shape with one element); false if not one.
inline bool ConstantScalar(const backend::ILayerView& layer, std::size_t input, float& value) {
  const void* data = layer.GetConstantInput(input);
  const TensorInfo& info = layer.GetInputInfo(input);
  if (!data || info.type != DataType::kFloat32 || info.shape.NumElements() != 1) return false;
  std::memcpy(&value, data, sizeof(float));
  return true;
}

inline bool Is(const backend::ILayerView* layer, backend::LayerType type) {
  return layer && layer->GetType() == type && layer->GetDescriptor();
}

inline BinaryOperation BinaryOf(const backend::ILayerView& layer) {
  return static_cast<const ElementwiseBinaryDescriptor&>(*layer.GetDescriptor()).operation;
}

// Whether input `input` of `layer` reads output 0 of `producer` (Backend API 1.1 connections).
inline bool Reads(const backend::ILayerView& layer, std::size_t input, const backend::ILayerView& producer) {
  std::size_t output = 0;
  return layer.GetInputProducer(input, &output) == producer.GetName() && output == 0;
}

// Whether output 0 of `layer` is read by exactly `count` layer inputs in the whole network: a
// tensor inside a chain must be read only by the chain, or the fused layer could not give it.
inline bool ReadBy(const backend::ILayerView& layer, std::size_t count) {
  return layer.GetOutputConsumerCount(0) == count;
}

}  // namespace backplane::onednn::fusion
