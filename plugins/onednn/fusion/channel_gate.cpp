// Channel gates (folded_operand.hpp): a squeeze-and-excitation Mul folded into the
// convolution reading it.
#include "folded_operand.hpp"

#include "layer_match.hpp"

namespace backplane::onednn::fusion {

using backend::ILayerView;
using backend::LayerType;

FoldedOperand FoldChannelGate(const ILayerView& conv, const LayersByName& by_name, const TakenLayers& taken) {
  const TensorInfo& x_info = conv.GetInputInfo(0);
  if (conv.GetType() != LayerType::kConvolution2d || x_info.shape.Rank() != 4 || !conv.GetConstantInput(1) ||
      2 * conv.GetInputInfo(1).shape.NumElements() > x_info.shape.NumElements()) {
    return {};
  }
  std::size_t output = 0;
  const auto found = by_name.find(conv.GetInputProducer(0, &output));
  if (found == by_name.end() || output != 0) return {};
  const ILayerView& mul = *found->second;
  if (taken.count(&mul) || !Is(&mul, LayerType::kElementwiseBinary) || BinaryOf(mul) != BinaryOperation::kMul ||
      mul.GetNumInputs() != 2 || mul.GetNumOutputs() != 1 || !ReadBy(mul, 1)) {
    return {};
  }
  const TensorInfo gate{TensorShape{1, x_info.shape[1], 1, 1}, DataType::kFloat32};
  for (std::size_t x = 0; x < 2; ++x) {
    const std::size_t s = 1 - x;
    if (mul.GetConstantInput(x) || mul.GetConstantInput(s) || mul.GetInputInfo(x) != x_info ||
        mul.GetInputInfo(s) != gate) {
      continue;
    }
    FoldedOperand folded;
    folded.layers = {&mul};
    folded.source_input = x;
    folded.channel_scale_input = s;
    return folded;
  }
  return {};
}

}  // namespace backplane::onednn::fusion
