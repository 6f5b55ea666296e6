// The support checks several ops share beside the SDK's f32 rule (declared in onednn_ops.hpp).
#include "onednn_ops.hpp"

namespace backplane::onednn {

bool FitsOneDnnRank(const TensorShape& shape, std::string& reason) {
  if (shape.Rank() <= kMaxOneDnnRank) return true;
  reason = "tensor " + ToString(shape) + " has rank " + std::to_string(shape.Rank()) + "; oneDNN takes at most " +
           std::to_string(kMaxOneDnnRank) + " dimensions";
  return false;
}

bool IsF32WithConstantWeights(const backend::ILayerView& layer, std::string& reason) {
  if (!AllFloat32(layer, reason)) return false;
  if (!layer.GetConstantInput(1) || (layer.GetNumInputs() == 3 && !layer.GetConstantInput(2))) {
    reason = "weights and bias computed at run time are not supported (CpuOneDnn prepacks constant weights)";
    return false;
  }
  return true;
}

}  // namespace backplane::onednn
