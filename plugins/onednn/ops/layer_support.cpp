// The support checks several ops share (declared in onednn_ops.hpp).
#include "onednn_ops.hpp"

namespace backplane::onednn {

bool AllFloat32(const backend::ILayerView& layer, std::string& reason) {
  for (std::size_t i = 0; i < layer.GetNumInputs(); ++i) {
    if (layer.GetInputInfo(i).type != DataType::kFloat32) {
      reason = "input " + std::to_string(i) + " is " + ToString(layer.GetInputInfo(i).type) +
               "; CpuOneDnn runs " + backend::ToString(layer.GetType()) + " on f32 only";
      return false;
    }
  }
  return true;
}

bool FitsOneDnnRank(const TensorShape& shape, std::string& reason) {
  if (shape.Rank() <= kMaxOneDnnRank) return true;
  reason = "tensor " + ToString(shape) + " has rank " + std::to_string(shape.Rank()) + "; oneDNN takes at most " +
           std::to_string(kMaxOneDnnRank) + " dimensions";
  return false;
}

}  // namespace backplane::onednn
