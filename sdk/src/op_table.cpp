#include <backplane/backend/op_schema.hpp>
#include <backplane/backend/op_table.hpp>

#include <algorithm>
#include <exception>

namespace backplane::backend {

std::string CannotRunReason(std::string_view backend, const ILayerView& layer, std::string_view why) {
  std::string reason(backend);
  reason += " cannot run layer '";
  reason += layer.GetName();
  reason += "': ";
  reason += why;
  return reason;
}

bool HasDescriptor(const ILayerView& layer, std::string& why) {
  if (layer.GetDescriptor()) return true;
  why = "the layer has no descriptor";
  return false;
}

bool InputsAreFloat32(std::string_view backend, const ILayerView& layer, std::size_t count, std::string& why) {
  for (std::size_t i = 0; i < std::min(count, layer.GetNumInputs()); ++i) {
    const DataType type = layer.GetInputInfo(i).type;
    if (type != DataType::kFloat32) {
      why = "input " + std::to_string(i) + " is " + ToString(type) + "; " + std::string(backend) + " runs " +
            ToString(layer.GetType()) + " on f32 only";
      return false;
    }
  }
  return true;
}

bool RowAccepts(const ILayerView& layer, LayerCheck backend_check, LayerCheck row_check, std::string& why) {
  const std::string type = ToString(layer.GetType());
  if (!row_check) {
    why = "it has no kernel for " + type + " layers";
    return false;
  }
  if (!HasDescriptor(layer, why)) return false;
  // Op set v1's rules are the op schema's: a layer that breaks them reaches no backend's check.
  if (!CheckLayer(layer, why)) return false;
  try {
    why.clear();
    if ((!backend_check || backend_check(layer, why)) && row_check(layer, why)) return true;
  } catch (const std::exception& error) {
    why = std::string("its support check failed: ") + error.what();
    return false;
  }
  if (why.empty()) why = "its " + type + " kernel refused the layer without a reason";
  return false;
}

}  // namespace backplane::backend
