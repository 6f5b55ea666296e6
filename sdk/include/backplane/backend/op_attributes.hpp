// Layer attributes across the plugin boundary: op set v1's C++ descriptors
// (backplane/descriptors.hpp) to and from the Bp*Attributes structs of backend_c_api.h, tensor
// infos both ways, and the PreCompiled payload the runtime keeps for a backend.
//
// The runtime uses CAttributes and CTensorInfo to show its layers to a plugin; the plugin adapter
// (c_adapter.hpp) uses DescriptorFromC and TensorInfoFromC to show them to the author's C++
// code. The out-of-line code is in libbackplane_sdk (sdk/src/op_attributes.cpp); a library built
// against another standard library compiles the SDK's sources into itself.
//
// It also checks at compile time that every BP_* enumeration value equals the matching C++
// enumerator, so the conversions below are plain casts (after a range check on the way in).
#pragma once

#include <backplane/backend/capabilities.hpp>
#include <backplane/backend/layer.hpp>
#include <backplane/backend_c_api.h>
#include <backplane/checked_size.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>
#include <backplane/logging.hpp>
#include <backplane/types.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace backplane::backend {

// ---- The C values equal the C++ enumerators -------------------------------------------------

namespace op_attributes_detail {
template <typename Enum>
constexpr std::uint32_t U(Enum value) {
  return static_cast<std::uint32_t>(value);
}
}  // namespace op_attributes_detail

#define BACKPLANE_DETAIL_SAME(C_VALUE, CXX_VALUE) \
  static_assert((C_VALUE) == ::backplane::backend::op_attributes_detail::U(CXX_VALUE), #C_VALUE " != " #CXX_VALUE)

BACKPLANE_DETAIL_SAME(BP_LAYER_INPUT, LayerType::kInput);
BACKPLANE_DETAIL_SAME(BP_LAYER_OUTPUT, LayerType::kOutput);
BACKPLANE_DETAIL_SAME(BP_LAYER_CONSTANT, LayerType::kConstant);
BACKPLANE_DETAIL_SAME(BP_LAYER_CONVOLUTION_2D, LayerType::kConvolution2d);
BACKPLANE_DETAIL_SAME(BP_LAYER_FULLY_CONNECTED, LayerType::kFullyConnected);
BACKPLANE_DETAIL_SAME(BP_LAYER_MAT_MUL, LayerType::kMatMul);
BACKPLANE_DETAIL_SAME(BP_LAYER_POOLING_2D, LayerType::kPooling2d);
BACKPLANE_DETAIL_SAME(BP_LAYER_ACTIVATION, LayerType::kActivation);
BACKPLANE_DETAIL_SAME(BP_LAYER_ELEMENTWISE_BINARY, LayerType::kElementwiseBinary);
BACKPLANE_DETAIL_SAME(BP_LAYER_ELEMENTWISE_UNARY, LayerType::kElementwiseUnary);
BACKPLANE_DETAIL_SAME(BP_LAYER_SOFTMAX, LayerType::kSoftmax);
BACKPLANE_DETAIL_SAME(BP_LAYER_BATCH_NORMALIZATION, LayerType::kBatchNormalization);
BACKPLANE_DETAIL_SAME(BP_LAYER_LAYER_NORMALIZATION, LayerType::kLayerNormalization);
BACKPLANE_DETAIL_SAME(BP_LAYER_REDUCE, LayerType::kReduce);
BACKPLANE_DETAIL_SAME(BP_LAYER_RESHAPE, LayerType::kReshape);
BACKPLANE_DETAIL_SAME(BP_LAYER_FLATTEN, LayerType::kFlatten);
BACKPLANE_DETAIL_SAME(BP_LAYER_TRANSPOSE, LayerType::kTranspose);
BACKPLANE_DETAIL_SAME(BP_LAYER_CONCAT, LayerType::kConcat);
BACKPLANE_DETAIL_SAME(BP_LAYER_SPLIT, LayerType::kSplit);
BACKPLANE_DETAIL_SAME(BP_LAYER_SLICE, LayerType::kSlice);
BACKPLANE_DETAIL_SAME(BP_LAYER_GATHER, LayerType::kGather);
BACKPLANE_DETAIL_SAME(BP_LAYER_PAD, LayerType::kPad);
BACKPLANE_DETAIL_SAME(BP_LAYER_CAST, LayerType::kCast);
BACKPLANE_DETAIL_SAME(BP_LAYER_PRE_COMPILED, LayerType::kPreCompiled);
BACKPLANE_DETAIL_SAME(BP_LAYER_WHERE, LayerType::kWhere);
BACKPLANE_DETAIL_SAME(BP_LAYER_GATHER_ELEMENTS, LayerType::kGatherElements);
BACKPLANE_DETAIL_SAME(BP_LAYER_ARG_MIN_MAX, LayerType::kArgMinMax);
BACKPLANE_DETAIL_SAME(BP_LAYER_TRILU, LayerType::kTrilu);
BACKPLANE_DETAIL_SAME(BP_LAYER_RESIZE, LayerType::kResize);
BACKPLANE_DETAIL_SAME(BP_LAYER_CONVOLUTION_TRANSPOSE, LayerType::kConvolutionTranspose);
BACKPLANE_DETAIL_SAME(BP_LAYER_TOP_K, LayerType::kTopK);
BACKPLANE_DETAIL_SAME(BP_LAYER_CUM_SUM, LayerType::kCumSum);
BACKPLANE_DETAIL_SAME(BP_LAYER_SCATTER_ELEMENTS, LayerType::kScatterElements);
BACKPLANE_DETAIL_SAME(BP_LAYER_GATHER_ND, LayerType::kGatherNd);
BACKPLANE_DETAIL_SAME(BP_LAYER_CONVOLUTION_ND, LayerType::kConvolutionNd);
BACKPLANE_DETAIL_SAME(BP_LAYER_POOLING_ND, LayerType::kPoolingNd);
BACKPLANE_DETAIL_SAME(BP_LAYER_GRID_SAMPLE, LayerType::kGridSample);
BACKPLANE_DETAIL_SAME(BP_LAYER_MAT_MUL_INTEGER, LayerType::kMatMulInteger);
BACKPLANE_DETAIL_SAME(BP_LAYER_CONVOLUTION_INTEGER, LayerType::kConvolutionInteger);
BACKPLANE_DETAIL_SAME(BP_LAYER_RECURRENT, LayerType::kRecurrent);
BACKPLANE_DETAIL_SAME(BP_LAYER_DFT, LayerType::kDft);
BACKPLANE_DETAIL_SAME(BP_LAYER_LRN, LayerType::kLrn);
BACKPLANE_DETAIL_SAME(BP_LAYER_DET, LayerType::kDet);
BACKPLANE_DETAIL_SAME(BP_LAYER_NON_ZERO, LayerType::kNonZero);
BACKPLANE_DETAIL_SAME(BP_LAYER_COMPRESS, LayerType::kCompress);
BACKPLANE_DETAIL_SAME(BP_LAYER_UNIQUE, LayerType::kUnique);
BACKPLANE_DETAIL_SAME(BP_LAYER_NON_MAX_SUPPRESSION, LayerType::kNonMaxSuppression);
// Every C++ layer type has a BP_LAYER_* value (a new type needs one here and in the C header).
BACKPLANE_DETAIL_SAME(BP_LAYER_NON_MAX_SUPPRESSION + 1u, LayerType::kCount);

BACKPLANE_DETAIL_SAME(BP_DATA_TYPE_F32, DataType::kFloat32);
BACKPLANE_DETAIL_SAME(BP_DATA_TYPE_F16, DataType::kFloat16);
BACKPLANE_DETAIL_SAME(BP_DATA_TYPE_BF16, DataType::kBFloat16);
BACKPLANE_DETAIL_SAME(BP_DATA_TYPE_I32, DataType::kInt32);
BACKPLANE_DETAIL_SAME(BP_DATA_TYPE_I64, DataType::kInt64);
BACKPLANE_DETAIL_SAME(BP_DATA_TYPE_BOOL, DataType::kBool);
BACKPLANE_DETAIL_SAME(BP_DATA_TYPE_I8, DataType::kInt8);
BACKPLANE_DETAIL_SAME(BP_DATA_TYPE_U8, DataType::kUInt8);
BACKPLANE_DETAIL_SAME(BP_DATA_TYPE_I16, DataType::kInt16);
BACKPLANE_DETAIL_SAME(BP_DATA_TYPE_U16, DataType::kUInt16);
BACKPLANE_DETAIL_SAME(BP_DATA_TYPE_U32, DataType::kUInt32);
BACKPLANE_DETAIL_SAME(BP_DATA_TYPE_U64, DataType::kUInt64);
BACKPLANE_DETAIL_SAME(BP_DATA_TYPE_F64, DataType::kFloat64);

// The op attributes' enumerations: each value equals its C macro (op_attributes.def).
#define BP_ENUMERATOR(Enum, name, c_value) BACKPLANE_DETAIL_SAME(c_value, Enum::name);
#include <backplane/backend/op_attributes.def>

BACKPLANE_DETAIL_SAME(BP_DEVICE_CPU, DeviceKind::kCpu);
BACKPLANE_DETAIL_SAME(BP_DEVICE_GPU, DeviceKind::kGpu);
BACKPLANE_DETAIL_SAME(BP_DEVICE_ACCELERATOR, DeviceKind::kAccelerator);

BACKPLANE_DETAIL_SAME(BP_LOG_DEBUG, LogLevel::kDebug);
BACKPLANE_DETAIL_SAME(BP_LOG_INFO, LogLevel::kInfo);
BACKPLANE_DETAIL_SAME(BP_LOG_WARNING, LogLevel::kWarning);
BACKPLANE_DETAIL_SAME(BP_LOG_ERROR, LogLevel::kError);

BACKPLANE_DETAIL_SAME(BP_LOG_DISCOVERY, LogCategory::kDiscovery);
BACKPLANE_DETAIL_SAME(BP_LOG_PLUGIN, LogCategory::kPlugin);
BACKPLANE_DETAIL_SAME(BP_LOG_OPTIMIZE, LogCategory::kOptimize);
BACKPLANE_DETAIL_SAME(BP_LOG_EXECUTE, LogCategory::kExecute);
static_assert(BP_LOG_EXECUTE + 1u == static_cast<std::uint32_t>(kLogCategoryCount),
              "every LogCategory has a BP_LOG_* value");

#undef BACKPLANE_DETAIL_SAME

// The number of values of each enumeration, for range checks of values that come from the
// other side.
inline constexpr std::uint32_t kBpDataTypeCount = BP_DATA_TYPE_F64 + 1u;
inline constexpr std::uint32_t kBpLayerTypeCount = BP_LAYER_NON_MAX_SUPPRESSION + 1u;
inline constexpr std::uint32_t kBpDeviceKindCount = BP_DEVICE_ACCELERATOR + 1u;
inline constexpr std::uint32_t kBpLogLevelCount = BP_LOG_ERROR + 1u;
inline constexpr std::uint32_t kBpLogCategoryCount = BP_LOG_EXECUTE + 1u;

// What an enumeration of op attributes is called in messages and how many values it has, for
// the range check of a value from the other side: BpEnum<PoolingType>::kCount. Expanded from
// op_attributes.def (whose BP_ENUM_END names the last C value: the values are 0 .. kCount - 1),
// plus DataType, which Cast's attributes use.
template <typename Enum>
struct BpEnum;
template <>
struct BpEnum<DataType> {
  static constexpr const char* kWhat = "data type";
  static constexpr std::uint32_t kCount = kBpDataTypeCount;
};
#define BP_ENUM_BEGIN(Enum, what)                 \
  template <>                                     \
  struct BpEnum<Enum> {                           \
    static constexpr const char* kWhat = what;    \
    static constexpr std::uint32_t kCount = 0u
#define BP_ENUMERATOR(Enum, name, c_value) +1u
#define BP_ENUM_END(Enum, last_c_value) \
  ;                                     \
  }                                     \
  ;                                     \
  static_assert(BpEnum<Enum>::kCount == (last_c_value) + 1u, #Enum ": its values are not 0 .. " #last_c_value);
#include <backplane/backend/op_attributes.def>

// ---- Tensor infos -------------------------------------------------------------------------

// The C view of `info`: `dims` points into info's shape, so the result is valid while `info`
// lives unchanged. Never throws.
inline BpTensorInfo CTensorInfo(const TensorInfo& info) noexcept {
  const auto& dims = info.shape.Dims();
  return BpTensorInfo{static_cast<std::uint32_t>(sizeof(BpTensorInfo)), static_cast<std::uint32_t>(info.type),
                      dims.empty() ? nullptr : dims.data(), dims.size()};
}

// A TensorInfo copied from `info` (filled by the other side). Throws Exception
// (kInvalidArgument) starting with `what` ("layer 'conv1' input 0") for a struct_size too
// small, an unknown data type, or null dims with a rank above 0.
TensorInfo TensorInfoFromC(const BpTensorInfo& info, std::string_view what);

// ---- PreCompiled payloads -----------------------------------------------------------------

// The descriptor of a PreCompiled layer in the runtime: a backend's payload from
// BpSubstitution, opaque to the runtime, shown back to that backend as
// BpPreCompiledAttributes{payload}. Owns the payload: the destructor calls `destroy(payload)`
// exactly once (when `destroy` is not null). Not copyable. The backend's library must stay
// loaded while this object lives (`destroy` is its code).
struct PreCompiledPayload final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kPreCompiled;

  PreCompiledPayload(void* payload, void (*destroy)(void*)) noexcept : payload(payload), destroy(destroy) {}
  ~PreCompiledPayload() override;
  PreCompiledPayload(const PreCompiledPayload&) = delete;
  PreCompiledPayload& operator=(const PreCompiledPayload&) = delete;

  void* const payload;
  void (*const destroy)(void*);
};

// ---- Runtime side: descriptor -> C -------------------------------------------------------

// The C attributes of one layer, as the runtime shows them to a plugin (BpLayer::attributes).
// Holds the Bp*Attributes struct itself; the arrays inside point into the descriptor given to
// Set. Not thread-safe; one object per layer view.
class CAttributes {
 public:
  // The C view of `descriptor` (of layer type `type`): a pointer to this object's storage,
  // whose array pointers point into `descriptor`, so the result is valid while both this
  // object (not moved, not Set again) and the descriptor live unchanged. Returns null for types
  // without attributes (Input, Output, MatMul) or a null descriptor. Throws Exception
  // (kInternal) when the descriptor is not the one `type` names (for kPreCompiled: not a
  // PreCompiledPayload), and (kInvalidArgument) for a Slice whose starts and ends differ in
  // count.
  const void* Set(LayerType type, const LayerDescriptor* descriptor);

 private:
  // One member per op of op_attributes.def (named as the op), plus Constant and PreCompiled.
  union Storage {
    BpConstantAttributes constant;
    BpPreCompiledAttributes pre_compiled;
#define BP_OP_BEGIN(Name) Bp##Name##Attributes Name;
#include <backplane/backend/op_attributes.def>
  };
  Storage storage_{};
};

// ---- Plugin side: C -> descriptor --------------------------------------------------------

// A C++ descriptor built (copied) from `attributes` of layer type `type` (a BP_LAYER_* value),
// owned by the caller and independent of `attributes`. Returns null for Input and Output, which
// have no descriptor (MatMul has no attributes but gets its empty descriptor, as every op of op
// set v1 has one). Throws Exception (kInvalidArgument) naming the type for an unknown type,
// kPreCompiled (the adapter handles payloads), a null `attributes` where one is required, a
// struct_size too small, an out-of-range enumeration or flag, a null array with entries, or a
// Constant whose data is null or whose shape has a negative dimension.
std::unique_ptr<LayerDescriptor> DescriptorFromC(std::uint32_t type, const void* attributes);

}  // namespace backplane::backend
