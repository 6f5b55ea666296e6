// What a backend sees of a layer: its type, name, tensors and descriptor.
#pragma once

#include <backplane/types.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace backplane::backend {

// Op set v1. Values are stable (ABI): new types are appended, never renumbered.
enum class LayerType : std::uint32_t {
  kInput = 0,
  kOutput,
  kConstant,
  kConvolution2d,
  kFullyConnected,
  kMatMul,
  kPooling2d,
  kActivation,
  kElementwiseBinary,
  kElementwiseUnary,
  kSoftmax,
  kBatchNormalization,
  kLayerNormalization,
  kReduce,
  kReshape,
  kFlatten,
  kTranspose,
  kConcat,
  kSplit,
  kSlice,
  kGather,
  kPad,
  kCast,
  kPreCompiled,  // a backend's fused replacement for a subgraph (OptimizeSubgraph)
  // Op set v2, after kPreCompiled (the C values of the types above stay as they were):
  kWhere,
  kGatherElements,
  kArgMinMax,
  kTrilu,
  kResize,
  kConvolutionTranspose,
  kTopK,
  kCumSum,
  kScatterElements,
  kGatherNd,
  kConvolutionNd,
  kPoolingNd,
  kGridSample,
  kMatMulInteger,
  kConvolutionInteger,
  kRecurrent,
  kDft,
  kLrn,
  kDet,
  // 43 to 49: Backend API 2.6's other layer types (the misc additions, merged apart).
  // Data-dependent extents (Backend API 2.6): bound-shaped outputs plus a count output.
  kNonZero = 50,
  kCompress,
  kUnique,
  kNonMaxSuppression,
  kCount  // not a layer: the number of layer types above
};

// Stable names equal to the enumerator without the 'k' ("Convolution2d"). Manifests list
// supported layer types by these names.
const char* ToString(LayerType type);
std::optional<LayerType> LayerTypeFromString(std::string_view name);

// Base of the per-type descriptors (strides, axes, ...). The concrete descriptor of a layer is
// determined by its LayerType, so a backend may static_cast after checking GetType().
struct LayerDescriptor {
  virtual ~LayerDescriptor();
};

// Read-only view of one layer of a network, owned by the runtime. Valid only during the call
// it is passed to; backends must copy what they keep. Thread-safe to read.
class ILayerView {
 public:
  virtual ~ILayerView();
  virtual LayerType GetType() const = 0;
  virtual const std::string& GetName() const = 0;
  virtual std::size_t GetNumInputs() const = 0;
  virtual std::size_t GetNumOutputs() const = 0;
  virtual const TensorInfo& GetInputInfo(std::size_t index) const = 0;
  virtual const TensorInfo& GetOutputInfo(std::size_t index) const = 0;
  // Null for layers without parameters (e.g. Input, Output).
  virtual const LayerDescriptor* GetDescriptor() const = 0;
  // The data of input `index` when it comes from a Constant layer (weights, bias), laid out
  // densely as GetInputInfo(index) says; null when it is computed at run time. Valid as long
  // as the network is loaded, so a workload may keep the pointer or repack the data.
  virtual const void* GetConstantInput(std::size_t index) const = 0;

  // The connections, so OptimizeSubgraph can follow the data instead of
  // guessing it from the layer order. The name of the layer whose output feeds input `index`
  // (names are unique in a network; Input and Constant layers are layers too), and in `output`
  // (when not null) which of its outputs. Default, for views that know no network (test
  // doubles): "" and 0.
  virtual std::string GetInputProducer(std::size_t index, std::size_t* output = nullptr) const;
  // How many layer inputs in the whole network (Output layers included) read output `index`.
  // Default: SIZE_MAX, unknown (a fusion must then assume it is read elsewhere).
  virtual std::size_t GetOutputConsumerCount(std::size_t index) const;
};

}  // namespace backplane::backend
