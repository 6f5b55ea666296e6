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
    "Where",          "GatherElements",   "ArgMinMax",          "Trilu",
    "Resize",         "ConvolutionTranspose", "TopK",             "CumSum",
    "ScatterElements", "GatherNd",      "ConvolutionNd",      "PoolingNd",
    "GridSample",     "MatMulInteger",    "ConvolutionInteger", "Recurrent",
    "Dft",            "Lrn",              "Det",              nullptr,  // 43-49: Backend API 2.6's
    nullptr,          nullptr,            nullptr,              nullptr,  // other additions, merged
    nullptr,          nullptr,                                            // apart
    "NonZero",        "Compress",         "Unique",             "NonMaxSuppression",
};
}  // namespace

const char* ToString(LayerType type) {
  const auto index = static_cast<std::size_t>(type);
  return index < kLayerNames.size() && kLayerNames[index] ? kLayerNames[index] : "Unknown";
}

std::optional<LayerType> LayerTypeFromString(std::string_view name) {
  for (std::size_t i = 0; i < kLayerNames.size(); ++i) {
    if (kLayerNames[i] && name == kLayerNames[i]) return static_cast<LayerType>(i);
  }
  return std::nullopt;
}

LayerDescriptor::~LayerDescriptor() = default;
ILayerView::~ILayerView() = default;

std::string ILayerView::GetInputProducer(std::size_t, std::size_t* output) const {
  if (output) *output = 0;
  return {};
}

std::size_t ILayerView::GetOutputConsumerCount(std::size_t) const { return SIZE_MAX; }

}  // namespace backplane::backend
