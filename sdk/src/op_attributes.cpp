#include <backplane/backend/op_attributes.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace backplane::backend {

namespace {

// ---- Runtime side: descriptor -> C --------------------------------------------------------

template <typename Struct>
constexpr std::uint32_t Size() {
  return static_cast<std::uint32_t>(sizeof(Struct));
}
std::uint32_t AsFlag(bool value) { return value ? 1u : 0u; }
template <typename T>
const T* Data(const std::vector<T>& values) {
  return values.empty() ? nullptr : values.data();
}
template <typename Descriptor>
const Descriptor& As(LayerType type, const LayerDescriptor* descriptor) {
  const auto* typed = dynamic_cast<const Descriptor*>(descriptor);
  if (typed == nullptr) {
    throw Exception(ErrorCode::kInternal, std::string("a ") + ToString(type) +
                                              " layer's descriptor is not of the type its layer type names");
  }
  return *typed;
}

// ---- Plugin side: C -> descriptor ---------------------------------------------------------

// "Convolution2d", or "layer type 42" for a value outside op set v1.
std::string TypeName(std::uint32_t type) {
  if (type < kBpLayerTypeCount) return ToString(static_cast<LayerType>(type));
  return "layer type " + std::to_string(type);
}

[[noreturn]] void Fail(std::uint32_t type, const std::string& what) {
  throw Exception(ErrorCode::kInvalidArgument, TypeName(type) + " attributes: " + what);
}

// `attributes` as the struct `type` names, checked for null and size.
template <typename Struct>
const Struct& Read(std::uint32_t type, const void* attributes, const char* struct_name) {
  if (attributes == nullptr) {
    throw Exception(ErrorCode::kInvalidArgument,
                    TypeName(type) + " layer without attributes (" + struct_name + " expected)");
  }
  const auto& typed = *static_cast<const Struct*>(attributes);
  if (typed.struct_size < sizeof(Struct)) {
    Fail(type, std::string(struct_name) + " struct_size " + std::to_string(typed.struct_size) + " is below " +
                   std::to_string(sizeof(Struct)));
  }
  return typed;
}

template <typename T>
std::vector<T> Array(std::uint32_t type, const T* data, std::size_t count, const char* field) {
  if (count > 0 && data == nullptr) Fail(type, std::string(field) + " has " + std::to_string(count) + " entries but is null");
  return count > 0 ? std::vector<T>(data, data + count) : std::vector<T>();
}

bool Bool(std::uint32_t type, std::uint32_t value, const char* field) {
  if (value > 1) Fail(type, std::string(field) + " is " + std::to_string(value) + ", not 0 or 1");
  return value == 1;
}

template <typename Enum>
Enum Enumerator(std::uint32_t type, std::uint32_t value, std::uint32_t count, const char* field) {
  if (value >= count) Fail(type, "unknown " + std::string(field) + " " + std::to_string(value));
  return static_cast<Enum>(value);
}

template <std::size_t N>
void CopyArray(std::array<std::uint32_t, N>& to, const std::uint32_t (&from)[N]) {
  for (std::size_t i = 0; i < N; ++i) to[i] = from[i];
}

}  // namespace

TensorInfo TensorInfoFromC(const BpTensorInfo& info, std::string_view what) {
  const std::string where(what);
  if (info.struct_size < sizeof(BpTensorInfo)) {
    throw Exception(ErrorCode::kInvalidArgument, where + ": BpTensorInfo struct_size " +
                                                     std::to_string(info.struct_size) + " is below " +
                                                     std::to_string(sizeof(BpTensorInfo)));
  }
  if (info.data_type >= kBpDataTypeCount) {
    throw Exception(ErrorCode::kInvalidArgument,
                    where + ": unknown data type " + std::to_string(info.data_type));
  }
  if (info.rank > 0 && info.dims == nullptr) {
    throw Exception(ErrorCode::kInvalidArgument,
                    where + ": rank " + std::to_string(info.rank) + " with null dims");
  }
  TensorInfo result;
  result.type = static_cast<DataType>(info.data_type);
  if (info.rank > 0) result.shape = TensorShape(std::vector<std::int64_t>(info.dims, info.dims + info.rank));
  return result;
}

PreCompiledPayload::~PreCompiledPayload() {
  if (destroy) destroy(payload);
}

const void* CAttributes::Set(LayerType type, const LayerDescriptor* descriptor) {
  if (descriptor == nullptr) return nullptr;
  switch (type) {
    case LayerType::kInput:
    case LayerType::kOutput:
    case LayerType::kMatMul:
    case LayerType::kCount:
      return nullptr;
    case LayerType::kConstant: {
      const auto& d = As<ConstantDescriptor>(type, descriptor);
      storage_.constant = BpConstantAttributes{Size<BpConstantAttributes>(), CTensorInfo(d.info),
                                               d.data && !d.data->empty() ? d.data->data() : nullptr};
      return &storage_.constant;
    }
    case LayerType::kConvolution2d: {
      const auto& d = As<Convolution2dDescriptor>(type, descriptor);
      auto& a = storage_.convolution = BpConvolution2dAttributes{};
      a.struct_size = Size<BpConvolution2dAttributes>();
      for (int i = 0; i < 2; ++i) a.strides[i] = d.strides[i];
      for (int i = 0; i < 2; ++i) a.dilations[i] = d.dilations[i];
      for (int i = 0; i < 4; ++i) a.pads[i] = d.pads[i];
      a.groups = d.groups;
      return &a;
    }
    case LayerType::kFullyConnected: {
      const auto& d = As<FullyConnectedDescriptor>(type, descriptor);
      storage_.fully_connected = BpFullyConnectedAttributes{
          Size<BpFullyConnectedAttributes>(), AsFlag(d.transpose_a), AsFlag(d.transpose_b), d.alpha, d.beta};
      return &storage_.fully_connected;
    }
    case LayerType::kPooling2d: {
      const auto& d = As<Pooling2dDescriptor>(type, descriptor);
      auto& a = storage_.pooling = BpPooling2dAttributes{};
      a.struct_size = Size<BpPooling2dAttributes>();
      a.type = static_cast<std::uint32_t>(d.type);
      for (int i = 0; i < 2; ++i) a.kernel[i] = d.kernel[i];
      for (int i = 0; i < 2; ++i) a.strides[i] = d.strides[i];
      for (int i = 0; i < 2; ++i) a.dilations[i] = d.dilations[i];
      for (int i = 0; i < 4; ++i) a.pads[i] = d.pads[i];
      a.count_include_pad = AsFlag(d.count_include_pad);
      a.ceil_mode = AsFlag(d.ceil_mode);
      a.global = AsFlag(d.global);
      return &a;
    }
    case LayerType::kActivation: {
      const auto& d = As<ActivationDescriptor>(type, descriptor);
      storage_.activation = BpActivationAttributes{Size<BpActivationAttributes>(),
                                                   static_cast<std::uint32_t>(d.function), d.alpha, d.beta};
      return &storage_.activation;
    }
    case LayerType::kElementwiseBinary: {
      const auto& d = As<ElementwiseBinaryDescriptor>(type, descriptor);
      storage_.binary = BpElementwiseBinaryAttributes{Size<BpElementwiseBinaryAttributes>(),
                                                      static_cast<std::uint32_t>(d.operation)};
      return &storage_.binary;
    }
    case LayerType::kElementwiseUnary: {
      const auto& d = As<ElementwiseUnaryDescriptor>(type, descriptor);
      storage_.unary = BpElementwiseUnaryAttributes{Size<BpElementwiseUnaryAttributes>(),
                                                    static_cast<std::uint32_t>(d.operation)};
      return &storage_.unary;
    }
    case LayerType::kSoftmax: {
      const auto& d = As<SoftmaxDescriptor>(type, descriptor);
      storage_.softmax = BpSoftmaxAttributes{Size<BpSoftmaxAttributes>(), d.axis};
      return &storage_.softmax;
    }
    case LayerType::kBatchNormalization: {
      const auto& d = As<BatchNormalizationDescriptor>(type, descriptor);
      storage_.batch_normalization =
          BpBatchNormalizationAttributes{Size<BpBatchNormalizationAttributes>(), d.epsilon};
      return &storage_.batch_normalization;
    }
    case LayerType::kLayerNormalization: {
      const auto& d = As<LayerNormalizationDescriptor>(type, descriptor);
      storage_.layer_normalization =
          BpLayerNormalizationAttributes{Size<BpLayerNormalizationAttributes>(), d.axis, d.epsilon};
      return &storage_.layer_normalization;
    }
    case LayerType::kReduce: {
      const auto& d = As<ReduceDescriptor>(type, descriptor);
      storage_.reduce = BpReduceAttributes{Size<BpReduceAttributes>(), static_cast<std::uint32_t>(d.operation),
                                           Data(d.axes), d.axes.size(), AsFlag(d.keep_dims)};
      return &storage_.reduce;
    }
    case LayerType::kReshape: {
      const auto& d = As<ReshapeDescriptor>(type, descriptor);
      storage_.reshape = BpReshapeAttributes{Size<BpReshapeAttributes>(), Data(d.shape), d.shape.size()};
      return &storage_.reshape;
    }
    case LayerType::kFlatten: {
      const auto& d = As<FlattenDescriptor>(type, descriptor);
      storage_.flatten = BpFlattenAttributes{Size<BpFlattenAttributes>(), d.axis};
      return &storage_.flatten;
    }
    case LayerType::kTranspose: {
      const auto& d = As<TransposeDescriptor>(type, descriptor);
      storage_.transpose =
          BpTransposeAttributes{Size<BpTransposeAttributes>(), Data(d.permutation), d.permutation.size()};
      return &storage_.transpose;
    }
    case LayerType::kConcat: {
      const auto& d = As<ConcatDescriptor>(type, descriptor);
      storage_.concat = BpConcatAttributes{Size<BpConcatAttributes>(), d.axis};
      return &storage_.concat;
    }
    case LayerType::kSplit: {
      const auto& d = As<SplitDescriptor>(type, descriptor);
      storage_.split = BpSplitAttributes{Size<BpSplitAttributes>(), d.axis, Data(d.sizes), d.sizes.size()};
      return &storage_.split;
    }
    case LayerType::kSlice: {
      const auto& d = As<SliceDescriptor>(type, descriptor);
      if (d.starts.size() != d.ends.size()) {
        throw Exception(ErrorCode::kInvalidArgument, "Slice descriptor has " + std::to_string(d.starts.size()) +
                                                         " starts but " + std::to_string(d.ends.size()) +
                                                         " ends; the counts must be equal");
      }
      storage_.slice = BpSliceAttributes{Size<BpSliceAttributes>(), Data(d.starts), Data(d.ends), d.starts.size(),
                                         Data(d.axes), d.axes.size(), Data(d.steps), d.steps.size()};
      return &storage_.slice;
    }
    case LayerType::kGather: {
      const auto& d = As<GatherDescriptor>(type, descriptor);
      storage_.gather = BpGatherAttributes{Size<BpGatherAttributes>(), d.axis};
      return &storage_.gather;
    }
    case LayerType::kPad: {
      const auto& d = As<PadDescriptor>(type, descriptor);
      storage_.pad = BpPadAttributes{Size<BpPadAttributes>(), Data(d.pads), d.pads.size(),
                                     static_cast<std::uint32_t>(d.mode), d.value};
      return &storage_.pad;
    }
    case LayerType::kCast: {
      const auto& d = As<CastDescriptor>(type, descriptor);
      storage_.cast = BpCastAttributes{Size<BpCastAttributes>(), static_cast<std::uint32_t>(d.to)};
      return &storage_.cast;
    }
    case LayerType::kPreCompiled: {
      const auto& d = As<PreCompiledPayload>(type, descriptor);
      storage_.pre_compiled = BpPreCompiledAttributes{Size<BpPreCompiledAttributes>(), d.payload};
      return &storage_.pre_compiled;
    }
  }
  throw Exception(ErrorCode::kInternal,
                  "layer type " + std::to_string(static_cast<std::uint32_t>(type)) + " has no C attributes");
}

std::unique_ptr<LayerDescriptor> DescriptorFromC(std::uint32_t type, const void* attributes) {
  switch (type) {
    case BP_LAYER_INPUT:
    case BP_LAYER_OUTPUT:
      return nullptr;
    case BP_LAYER_MAT_MUL:  // no attributes, but every op of op set v1 has a descriptor
      return std::make_unique<MatMulDescriptor>();
    case BP_LAYER_CONSTANT: {
      const auto& a = Read<BpConstantAttributes>(type, attributes, "BpConstantAttributes");
      auto d = std::make_unique<ConstantDescriptor>();
      d->info = TensorInfoFromC(a.info, TypeName(type) + " attributes: info");
      const std::uint64_t bytes = CheckedNumBytes(d->info.shape.Dims(), d->info.type, TypeName(type) + " attributes");
      if (bytes > 0 && a.data == nullptr) Fail(type, "data is null for " + std::to_string(bytes) + " bytes");
      const auto* begin = static_cast<const std::uint8_t*>(a.data);
      d->data = std::make_shared<const std::vector<std::uint8_t>>(begin, begin + static_cast<std::size_t>(bytes));
      return d;
    }
    case BP_LAYER_CONVOLUTION_2D: {
      const auto& a = Read<BpConvolution2dAttributes>(type, attributes, "BpConvolution2dAttributes");
      auto d = std::make_unique<Convolution2dDescriptor>();
      CopyArray(d->strides, a.strides);
      CopyArray(d->dilations, a.dilations);
      CopyArray(d->pads, a.pads);
      d->groups = a.groups;
      return d;
    }
    case BP_LAYER_FULLY_CONNECTED: {
      const auto& a = Read<BpFullyConnectedAttributes>(type, attributes, "BpFullyConnectedAttributes");
      auto d = std::make_unique<FullyConnectedDescriptor>();
      d->transpose_a = Bool(type, a.transpose_a, "transpose_a");
      d->transpose_b = Bool(type, a.transpose_b, "transpose_b");
      d->alpha = a.alpha;
      d->beta = a.beta;
      return d;
    }
    case BP_LAYER_POOLING_2D: {
      const auto& a = Read<BpPooling2dAttributes>(type, attributes, "BpPooling2dAttributes");
      auto d = std::make_unique<Pooling2dDescriptor>();
      d->type = Enumerator<PoolingType>(type, a.type, kBpPoolingCount, "pooling type");
      CopyArray(d->kernel, a.kernel);
      CopyArray(d->strides, a.strides);
      CopyArray(d->dilations, a.dilations);
      CopyArray(d->pads, a.pads);
      d->count_include_pad = Bool(type, a.count_include_pad, "count_include_pad");
      d->ceil_mode = Bool(type, a.ceil_mode, "ceil_mode");
      d->global = Bool(type, a.global, "global");
      return d;
    }
    case BP_LAYER_ACTIVATION: {
      const auto& a = Read<BpActivationAttributes>(type, attributes, "BpActivationAttributes");
      auto d = std::make_unique<ActivationDescriptor>();
      d->function = Enumerator<ActivationFunction>(type, a.function, kBpActivationCount, "activation function");
      d->alpha = a.alpha;
      d->beta = a.beta;
      return d;
    }
    case BP_LAYER_ELEMENTWISE_BINARY: {
      const auto& a = Read<BpElementwiseBinaryAttributes>(type, attributes, "BpElementwiseBinaryAttributes");
      auto d = std::make_unique<ElementwiseBinaryDescriptor>();
      d->operation = Enumerator<BinaryOperation>(type, a.operation, kBpBinaryCount, "binary operation");
      return d;
    }
    case BP_LAYER_ELEMENTWISE_UNARY: {
      const auto& a = Read<BpElementwiseUnaryAttributes>(type, attributes, "BpElementwiseUnaryAttributes");
      auto d = std::make_unique<ElementwiseUnaryDescriptor>();
      d->operation = Enumerator<UnaryOperation>(type, a.operation, kBpUnaryCount, "unary operation");
      return d;
    }
    case BP_LAYER_SOFTMAX: {
      const auto& a = Read<BpSoftmaxAttributes>(type, attributes, "BpSoftmaxAttributes");
      auto d = std::make_unique<SoftmaxDescriptor>();
      d->axis = a.axis;
      return d;
    }
    case BP_LAYER_BATCH_NORMALIZATION: {
      const auto& a = Read<BpBatchNormalizationAttributes>(type, attributes, "BpBatchNormalizationAttributes");
      auto d = std::make_unique<BatchNormalizationDescriptor>();
      d->epsilon = a.epsilon;
      return d;
    }
    case BP_LAYER_LAYER_NORMALIZATION: {
      const auto& a = Read<BpLayerNormalizationAttributes>(type, attributes, "BpLayerNormalizationAttributes");
      auto d = std::make_unique<LayerNormalizationDescriptor>();
      d->axis = a.axis;
      d->epsilon = a.epsilon;
      return d;
    }
    case BP_LAYER_REDUCE: {
      const auto& a = Read<BpReduceAttributes>(type, attributes, "BpReduceAttributes");
      auto d = std::make_unique<ReduceDescriptor>();
      d->operation = Enumerator<ReduceOperation>(type, a.operation, kBpReduceCount, "reduce operation");
      d->axes = Array(type, a.axes, a.axis_count, "axes");
      d->keep_dims = Bool(type, a.keep_dims, "keep_dims");
      return d;
    }
    case BP_LAYER_RESHAPE: {
      const auto& a = Read<BpReshapeAttributes>(type, attributes, "BpReshapeAttributes");
      auto d = std::make_unique<ReshapeDescriptor>();
      d->shape = Array(type, a.shape, a.rank, "shape");
      return d;
    }
    case BP_LAYER_FLATTEN: {
      const auto& a = Read<BpFlattenAttributes>(type, attributes, "BpFlattenAttributes");
      auto d = std::make_unique<FlattenDescriptor>();
      d->axis = a.axis;
      return d;
    }
    case BP_LAYER_TRANSPOSE: {
      const auto& a = Read<BpTransposeAttributes>(type, attributes, "BpTransposeAttributes");
      auto d = std::make_unique<TransposeDescriptor>();
      d->permutation = Array(type, a.permutation, a.rank, "permutation");
      return d;
    }
    case BP_LAYER_CONCAT: {
      const auto& a = Read<BpConcatAttributes>(type, attributes, "BpConcatAttributes");
      auto d = std::make_unique<ConcatDescriptor>();
      d->axis = a.axis;
      return d;
    }
    case BP_LAYER_SPLIT: {
      const auto& a = Read<BpSplitAttributes>(type, attributes, "BpSplitAttributes");
      auto d = std::make_unique<SplitDescriptor>();
      d->axis = a.axis;
      d->sizes = Array(type, a.sizes, a.count, "sizes");
      return d;
    }
    case BP_LAYER_SLICE: {
      const auto& a = Read<BpSliceAttributes>(type, attributes, "BpSliceAttributes");
      auto d = std::make_unique<SliceDescriptor>();
      d->starts = Array(type, a.starts, a.count, "starts");
      d->ends = Array(type, a.ends, a.count, "ends");
      d->axes = Array(type, a.axes, a.axis_count, "axes");
      d->steps = Array(type, a.steps, a.step_count, "steps");
      return d;
    }
    case BP_LAYER_GATHER: {
      const auto& a = Read<BpGatherAttributes>(type, attributes, "BpGatherAttributes");
      auto d = std::make_unique<GatherDescriptor>();
      d->axis = a.axis;
      return d;
    }
    case BP_LAYER_PAD: {
      const auto& a = Read<BpPadAttributes>(type, attributes, "BpPadAttributes");
      auto d = std::make_unique<PadDescriptor>();
      d->pads = Array(type, a.pads, a.count, "pads");
      d->mode = Enumerator<PadMode>(type, a.mode, kBpPadCount, "pad mode");
      d->value = a.value;
      return d;
    }
    case BP_LAYER_CAST: {
      const auto& a = Read<BpCastAttributes>(type, attributes, "BpCastAttributes");
      auto d = std::make_unique<CastDescriptor>();
      d->to = Enumerator<DataType>(type, a.to, kBpDataTypeCount, "data type");
      return d;
    }
    case BP_LAYER_PRE_COMPILED:
      throw Exception(ErrorCode::kInvalidArgument,
                      "PreCompiled attributes carry a backend's payload, not op set v1 attributes; "
                      "the plugin adapter reads them");
    default:
      break;
  }
  throw Exception(ErrorCode::kInvalidArgument, "unknown " + TypeName(type) + " (op set v1 has " +
                                                   std::to_string(kBpLayerTypeCount) + " layer types)");
}

}  // namespace backplane::backend
