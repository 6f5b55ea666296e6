#include "op_spec.hpp"

namespace backplane::onednn {

TensorRef InputRef(const backend::ILayerView& layer, std::size_t input) {
  TensorRef ref;
  ref.info = layer.GetInputInfo(input);
  ref.constant = layer.GetConstantInput(input);
  ref.index = input;
  return ref;
}

OpSpec SpecOf(const backend::ILayerView& layer) {
  OpSpec spec;
  spec.name = layer.GetName();
  spec.type = layer.GetType();
  spec.descriptor = layer.GetDescriptor();
  for (std::size_t i = 0; i < layer.GetNumInputs(); ++i) {
    spec.inputs.push_back(InputRef(layer, i));
  }
  spec.output = layer.GetOutputInfo(0);
  for (std::size_t i = 0; i < layer.GetNumOutputs(); ++i) spec.outputs.push_back(layer.GetOutputInfo(i));
  spec.output_readers = layer.GetOutputConsumerCount(0);
  return spec;
}

}  // namespace backplane::onednn
