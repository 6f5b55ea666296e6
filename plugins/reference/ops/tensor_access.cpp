#include "tensor_access.hpp"

namespace backplane::reference {

bool HasArity(const backend::ILayerView& layer, std::size_t min_inputs, std::size_t max_inputs,
              std::size_t outputs, std::string& reason) {
  const std::size_t n = layer.GetNumInputs();
  if (n < min_inputs || n > max_inputs) {
    reason = std::string(backend::ToString(layer.GetType())) + " takes " +
             (min_inputs == max_inputs ? std::to_string(min_inputs)
                                       : std::to_string(min_inputs) + " to " + std::to_string(max_inputs)) +
             " inputs, layer '" + layer.GetName() + "' has " + std::to_string(n);
    return false;
  }
  if (layer.GetNumOutputs() != outputs) {
    reason = std::string(backend::ToString(layer.GetType())) + " has " + std::to_string(outputs) +
             " outputs, layer '" + layer.GetName() + "' has " + std::to_string(layer.GetNumOutputs());
    return false;
  }
  return true;
}

bool AllFloat32(const backend::ILayerView& layer, std::string& reason) {
  for (std::size_t i = 0; i < layer.GetNumInputs(); ++i) {
    if (layer.GetInputInfo(i).type != DataType::kFloat32) {
      reason = "input " + std::to_string(i) + " is " + ToString(layer.GetInputInfo(i).type) +
               "; CpuRef runs " + backend::ToString(layer.GetType()) + " on f32 only";
      return false;
    }
  }
  for (std::size_t i = 0; i < layer.GetNumOutputs(); ++i) {
    if (layer.GetOutputInfo(i).type != DataType::kFloat32) {
      reason = "output " + std::to_string(i) + " is " + ToString(layer.GetOutputInfo(i).type) +
               "; CpuRef runs " + backend::ToString(layer.GetType()) + " on f32 only";
      return false;
    }
  }
  return true;
}

bool NormalizeAxis(std::int64_t axis, std::size_t rank, std::size_t& out) {
  const auto r = static_cast<std::int64_t>(rank);
  if (axis < -r || axis >= r) return false;
  out = static_cast<std::size_t>(axis < 0 ? axis + r : axis);
  return true;
}

}  // namespace backplane::reference
