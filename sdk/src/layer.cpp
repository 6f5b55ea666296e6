#include <backplane/backend/layer.hpp>

#include <array>

namespace backplane::backend {

namespace {
constexpr std::array<const char*, static_cast<std::size_t>(LayerType::kCount)> kLayerNames{
    "Input",          "Output",           "Constant",           "Convolution2d",
    "FullyConnected", "MatMul",           "Pooling2d",          "Activation",
    "ElementwiseBinary", "ElementwiseUnary", "Softmax",         "BatchNormalization",
    "LayerNormalization", "Reduce",       "Reshape",            "Flatten",
    "Transpose",      "Concat",           "Split",              "Slice",
    "Gather",         "Pad",              "Cast",               "PreCompiled",
};
}  // namespace

const char* ToString(LayerType type) {
  const auto index = static_cast<std::size_t>(type);
  return index < kLayerNames.size() ? kLayerNames[index] : "Unknown";
}

std::optional<LayerType> LayerTypeFromString(std::string_view name) {
  for (std::size_t i = 0; i < kLayerNames.size(); ++i) {
    if (name == kLayerNames[i]) return static_cast<LayerType>(i);
  }
  return std::nullopt;
}

LayerDescriptor::~LayerDescriptor() = default;
ILayerView::~ILayerView() = default;

}  // namespace backplane::backend
