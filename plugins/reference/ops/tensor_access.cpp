#include "tensor_access.hpp"

namespace backplane::reference {

bool AllFloat32(const backend::ILayerView& layer, std::string& reason) {
  for (std::size_t i = 0; i < layer.GetNumInputs(); ++i) {
    if (layer.GetInputInfo(i).type != DataType::kFloat32) {
      reason = "input " + std::to_string(i) + " is " + ToString(layer.GetInputInfo(i).type) +
               "; CpuRef runs " + backend::ToString(layer.GetType()) + " on f32 only";
      return false;
    }
  }
  return true;
}

}  // namespace backplane::reference
