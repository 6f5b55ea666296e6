#include <backplane/backend/op_attributes.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace backplane::backend {
namespace {

// The message of the Exception `call` throws, checking its code; "no exception" otherwise.
std::string ErrorOf(const std::function<void()>& call, ErrorCode expected = ErrorCode::kInvalidArgument) {
  try {
    call();
  } catch (const Exception& error) {
    CHECK(error.code() == expected);
    return error.what();
  }
  return "no exception";
}

// `descriptor` through the C attributes and back.
template <typename Descriptor>
std::unique_ptr<Descriptor> RoundTrip(const Descriptor& descriptor) {
  CAttributes attributes;
  const void* c = attributes.Set(Descriptor::kType, &descriptor);
  REQUIRE(c != nullptr);
  std::unique_ptr<LayerDescriptor> back = DescriptorFromC(static_cast<std::uint32_t>(Descriptor::kType), c);
  auto* typed = dynamic_cast<Descriptor*>(back.get());
  REQUIRE(typed != nullptr);
  back.release();
  return std::unique_ptr<Descriptor>(typed);
}

// ---- Every op of op_attributes.def, expanded from the list itself --------------------------

// The enumerator after `value` (wrapping), so that it differs from it.
template <typename Enum>
Enum NextOf(Enum value) {
  return static_cast<Enum>((static_cast<std::uint32_t>(value) + 1u) % BpEnum<Enum>::kCount);
}

// <Name>Modified(): the op's descriptor with every listed field off its default (and CHECKed so).
#define BP_OP_BEGIN(Name)                        \
  Name##Descriptor Name##Modified() {            \
    const Name##Descriptor defaults;             \
    Name##Descriptor d;
#define BP_ATTR_VALUE(field, value_type, default_value) d.field = static_cast<value_type>(defaults.field + 3);
#define BP_ATTR_FLAG(field, default_value) d.field = !defaults.field;
#define BP_ATTR_ENUM(field, Enum, default_value) d.field = NextOf(defaults.field);
#define BP_ATTR_ARRAY(field, count, defaults_)                                 \
  for (std::size_t i = 0; i < (count); ++i) d.field[i] = defaults.field[i] + static_cast<std::uint32_t>(i) + 2u;
#define BP_ATTR_LIST(field, element, c_count) d.field = {element(1), element(2)};
#define BP_OP_END(Name) \
  return d;             \
  }
#include <backplane/backend/op_attributes.def>

// Whether a field compared equal, CHECKed by its name.
bool SameField(bool equal, const char* field) {
  CHECK_MESSAGE(equal, field);
  return equal;
}

// SameFields(a, b): every listed field of the two descriptors is equal; CHECKs each by name.
#define BP_OP_BEGIN(Name)                                                 \
  bool SameFields(const Name##Descriptor& a, const Name##Descriptor& b) { \
    bool same = true;
#define BP_ATTR_VALUE(field, value_type, default_value) same &= SameField(a.field == b.field, #field);
#define BP_ATTR_FLAG(field, default_value) same &= SameField(a.field == b.field, #field);
#define BP_ATTR_ENUM(field, Enum, default_value) same &= SameField(a.field == b.field, #field);
#define BP_ATTR_ARRAY(field, count, defaults) same &= SameField(a.field == b.field, #field);
#define BP_ATTR_LIST(field, element, c_count) same &= SameField(a.field == b.field, #field);
#define BP_OP_END(Name) \
  return same;          \
  }
#include <backplane/backend/op_attributes.def>

// NoFieldAtDefault(d): every listed field of `d` differs from the default descriptor's.
#define BP_OP_BEGIN(Name)                             \
  void NoFieldAtDefault(const Name##Descriptor& d) {  \
    const Name##Descriptor defaults;
#define BP_ATTR_VALUE(field, value_type, default_value) CHECK_MESSAGE(d.field != defaults.field, #field);
#define BP_ATTR_FLAG(field, default_value) CHECK_MESSAGE(d.field != defaults.field, #field);
#define BP_ATTR_ENUM(field, Enum, default_value) CHECK_MESSAGE(d.field != defaults.field, #field);
#define BP_ATTR_ARRAY(field, count, defaults_) CHECK_MESSAGE(d.field != defaults.field, #field);
#define BP_ATTR_LIST(field, element, c_count) CHECK_MESSAGE(d.field != defaults.field, #field);
#define BP_OP_END(Name) }
#include <backplane/backend/op_attributes.def>

TEST_CASE("op attributes: convolution, fully connected and pooling round-trip") {
  Convolution2dDescriptor conv;
  conv.strides = {2, 3};
  conv.dilations = {4, 5};
  conv.pads = {6, 7, 8, 9};
  conv.groups = 32;
  auto conv_back = RoundTrip(conv);
  CHECK(conv_back->strides == conv.strides);
  CHECK(conv_back->dilations == conv.dilations);
  CHECK(conv_back->pads == conv.pads);
  CHECK(conv_back->groups == 32);

  FullyConnectedDescriptor fc;
  fc.transpose_a = true;
  fc.transpose_b = false;
  fc.alpha = 0.5f;
  fc.beta = 2.5f;
  auto fc_back = RoundTrip(fc);
  CHECK(fc_back->transpose_a);
  CHECK_FALSE(fc_back->transpose_b);
  CHECK(fc_back->alpha == 0.5f);
  CHECK(fc_back->beta == 2.5f);

  Pooling2dDescriptor pool;
  pool.type = PoolingType::kAverage;
  pool.kernel = {3, 5};
  pool.strides = {2, 1};
  pool.dilations = {1, 2};
  pool.pads = {1, 2, 3, 4};
  pool.count_include_pad = true;
  pool.ceil_mode = true;
  pool.global = true;
  auto pool_back = RoundTrip(pool);
  CHECK(pool_back->type == PoolingType::kAverage);
  CHECK(pool_back->kernel == pool.kernel);
  CHECK(pool_back->strides == pool.strides);
  CHECK(pool_back->dilations == pool.dilations);
  CHECK(pool_back->pads == pool.pads);
  CHECK(pool_back->count_include_pad);
  CHECK(pool_back->ceil_mode);
  CHECK(pool_back->global);
}

TEST_CASE("op attributes: elementwise, softmax and normalization round-trip") {
  ActivationDescriptor activation;
  activation.function = ActivationFunction::kHardSigmoid;
  activation.alpha = 0.2f;
  activation.beta = 0.7f;
  auto activation_back = RoundTrip(activation);
  CHECK(activation_back->function == ActivationFunction::kHardSigmoid);
  CHECK(activation_back->alpha == 0.2f);
  CHECK(activation_back->beta == 0.7f);

  ElementwiseBinaryDescriptor binary;
  binary.operation = BinaryOperation::kPow;
  CHECK(RoundTrip(binary)->operation == BinaryOperation::kPow);

  ElementwiseUnaryDescriptor unary;
  unary.operation = UnaryOperation::kReciprocal;
  CHECK(RoundTrip(unary)->operation == UnaryOperation::kReciprocal);

  SoftmaxDescriptor softmax;
  softmax.axis = -3;
  CHECK(RoundTrip(softmax)->axis == -3);

  BatchNormalizationDescriptor batch;
  batch.epsilon = 1e-3f;
  CHECK(RoundTrip(batch)->epsilon == 1e-3f);

  LayerNormalizationDescriptor layer_norm;
  layer_norm.axis = 2;
  layer_norm.epsilon = 1e-6f;
  auto layer_norm_back = RoundTrip(layer_norm);
  CHECK(layer_norm_back->axis == 2);
  CHECK(layer_norm_back->epsilon == 1e-6f);

  CastDescriptor cast;
  cast.to = DataType::kInt64;
  CHECK(RoundTrip(cast)->to == DataType::kInt64);

  GatherDescriptor gather;
  gather.axis = -1;
  CHECK(RoundTrip(gather)->axis == -1);

  ConcatDescriptor concat;
  concat.axis = 3;
  CHECK(RoundTrip(concat)->axis == 3);

  FlattenDescriptor flatten;
  flatten.axis = 2;
  CHECK(RoundTrip(flatten)->axis == 2);
}

TEST_CASE("op attributes: descriptors with arrays round-trip as copies") {
  ReduceDescriptor reduce;
  reduce.operation = ReduceOperation::kSum;
  reduce.axes = {0, -1, 2};
  reduce.keep_dims = false;
  auto reduce_back = RoundTrip(reduce);
  CHECK(reduce_back->operation == ReduceOperation::kSum);
  CHECK(reduce_back->axes == reduce.axes);
  CHECK_FALSE(reduce_back->keep_dims);
  CHECK(reduce_back->axes.data() != reduce.axes.data());

  ReshapeDescriptor reshape;
  reshape.shape = {1, -1, 0, 7};
  CHECK(RoundTrip(reshape)->shape == reshape.shape);

  TransposeDescriptor transpose;
  transpose.permutation = {0, 2, 3, 1};
  CHECK(RoundTrip(transpose)->permutation == transpose.permutation);
  CHECK(RoundTrip(TransposeDescriptor{})->permutation.empty());

  SplitDescriptor split;
  split.axis = 1;
  split.sizes = {2, 3, 5};
  auto split_back = RoundTrip(split);
  CHECK(split_back->axis == 1);
  CHECK(split_back->sizes == split.sizes);

  SliceDescriptor slice;
  slice.starts = {1, -4};
  slice.ends = {5, -1};
  slice.axes = {3, 1};
  slice.steps = {2, 1};
  auto slice_back = RoundTrip(slice);
  CHECK(slice_back->starts == slice.starts);
  CHECK(slice_back->ends == slice.ends);
  CHECK(slice_back->axes == slice.axes);
  CHECK(slice_back->steps == slice.steps);

  ConvolutionTransposeDescriptor deconv;
  deconv.strides = {2, 3};
  deconv.dilations = {1, 2};
  deconv.output_padding = {1, 0};
  deconv.pads = {0, 1, 2, 3};
  deconv.groups = 4;
  auto deconv_back = RoundTrip(deconv);
  CHECK(deconv_back->strides == deconv.strides);
  CHECK(deconv_back->dilations == deconv.dilations);
  CHECK(deconv_back->output_padding == deconv.output_padding);
  CHECK(deconv_back->pads == deconv.pads);
  CHECK(deconv_back->groups == 4);

  ConvolutionNdDescriptor conv;
  conv.strides = {2, 3, 1};
  conv.dilations = {1, 2, 1};
  conv.pads = {0, 1, 2, 3, 4, 5};
  conv.groups = 3;
  auto conv_back = RoundTrip(conv);
  CHECK(conv_back->strides == conv.strides);
  CHECK(conv_back->dilations == conv.dilations);
  CHECK(conv_back->pads == conv.pads);
  CHECK(conv_back->groups == 3);

  ConvolutionIntegerDescriptor integer_conv;
  integer_conv.strides = {2};
  integer_conv.dilations = {3};
  integer_conv.pads = {1, 0};
  integer_conv.groups = 2;
  auto integer_conv_back = RoundTrip(integer_conv);
  CHECK(integer_conv_back->strides == integer_conv.strides);
  CHECK(integer_conv_back->dilations == integer_conv.dilations);
  CHECK(integer_conv_back->pads == integer_conv.pads);
  CHECK(integer_conv_back->groups == 2);

  PoolingNdDescriptor pool;
  pool.type = PoolingType::kAverage;
  pool.kernel = {3, 2, 1};
  pool.strides = {1, 2, 3};
  pool.dilations = {2, 1, 1};
  pool.pads = {1, 0, 0, 0, 1, 1};
  pool.count_include_pad = true;
  pool.ceil_mode = true;
  auto pool_back = RoundTrip(pool);
  CHECK(pool_back->type == PoolingType::kAverage);
  CHECK(pool_back->kernel == pool.kernel);
  CHECK(pool_back->strides == pool.strides);
  CHECK(pool_back->dilations == pool.dilations);
  CHECK(pool_back->pads == pool.pads);
  CHECK(pool_back->count_include_pad);
  CHECK(pool_back->ceil_mode);
  CHECK_FALSE(pool_back->global);

  GridSampleDescriptor grid;
  grid.mode = GridSampleMode::kBicubic;
  grid.padding_mode = GridSamplePadding::kReflection;
  grid.align_corners = true;
  auto grid_back = RoundTrip(grid);
  CHECK(grid_back->mode == GridSampleMode::kBicubic);
  CHECK(grid_back->padding_mode == GridSamplePadding::kReflection);
  CHECK(grid_back->align_corners);

  RecurrentDescriptor recurrent;
  recurrent.cell = RecurrentCell::kGru;
  recurrent.direction = RecurrentDirection::kReverse;
  recurrent.activations = {static_cast<std::uint32_t>(RecurrentActivation::kHardSigmoid),
                           static_cast<std::uint32_t>(RecurrentActivation::kScaledTanh)};
  recurrent.activation_alpha = {0.2f, 1.5f};
  recurrent.activation_beta = {0.5f, 0.25f};
  recurrent.clip = 3.0f;
  recurrent.linear_before_reset = true;
  auto recurrent_back = RoundTrip(recurrent);
  CHECK(recurrent_back->cell == RecurrentCell::kGru);
  CHECK(recurrent_back->direction == RecurrentDirection::kReverse);
  CHECK(recurrent_back->activations == recurrent.activations);
  CHECK(recurrent_back->activation_alpha == recurrent.activation_alpha);
  CHECK(recurrent_back->activation_beta == recurrent.activation_beta);
  CHECK(recurrent_back->clip == 3.0f);
  CHECK(recurrent_back->linear_before_reset);
  CHECK_FALSE(recurrent_back->input_forget);

  DftDescriptor dft;
  dft.axis = 2;
  dft.length = 12;
  dft.onesided = true;
  auto dft_back = RoundTrip(dft);
  CHECK(dft_back->axis == 2);
  CHECK(dft_back->length == 12);
  CHECK_FALSE(dft_back->inverse);
  CHECK(dft_back->onesided);

  LrnDescriptor lrn;
  lrn.size = 5;
  lrn.alpha = 0.5f;
  lrn.beta = 0.25f;
  lrn.bias = 2.0f;
  auto lrn_back = RoundTrip(lrn);
  CHECK(lrn_back->size == 5);
  CHECK(lrn_back->alpha == 0.5f);
  CHECK(lrn_back->beta == 0.25f);
  CHECK(lrn_back->bias == 2.0f);

  PadDescriptor pad;
  pad.pads = {0, 1, 2, 3};
  pad.mode = PadMode::kReflect;
  pad.value = -1.5f;
  auto pad_back = RoundTrip(pad);
  CHECK(pad_back->pads == pad.pads);
  CHECK(pad_back->mode == PadMode::kReflect);
  CHECK(pad_back->value == -1.5f);

  ConstantDescriptor constant;
  constant.info = TensorInfo{TensorShape{2, 3}, DataType::kInt32};
  constant.data = std::make_shared<const std::vector<std::uint8_t>>(24, std::uint8_t{7});
  auto constant_back = RoundTrip(constant);
  CHECK(constant_back->info == constant.info);
  REQUIRE(constant_back->data.get() != nullptr);
  CHECK(*constant_back->data == *constant.data);
  CHECK(constant_back->data.get() != constant.data.get());
}

TEST_CASE("op attributes: types without attributes, null descriptors and PreCompiled payloads") {
  CAttributes attributes;
  MatMulDescriptor matmul;
  CHECK(attributes.Set(LayerType::kMatMul, &matmul) == nullptr);
  CHECK(attributes.Set(LayerType::kConvolution2d, nullptr) == nullptr);
  CHECK(DescriptorFromC(BP_LAYER_INPUT, nullptr) == nullptr);
  CHECK(DescriptorFromC(BP_LAYER_OUTPUT, nullptr) == nullptr);
  CHECK(dynamic_cast<const MatMulDescriptor*>(DescriptorFromC(BP_LAYER_MAT_MUL, nullptr).get()) != nullptr);
  CHECK(dynamic_cast<const MatMulIntegerDescriptor*>(DescriptorFromC(BP_LAYER_MAT_MUL_INTEGER, nullptr).get()) !=
        nullptr);
  DetDescriptor det;
  CHECK(attributes.Set(LayerType::kDet, &det) == nullptr);
  CHECK(dynamic_cast<const DetDescriptor*>(DescriptorFromC(BP_LAYER_DET, nullptr).get()) != nullptr);
  NonZeroDescriptor nonzero;
  CHECK(attributes.Set(LayerType::kNonZero, &nonzero) == nullptr);
  CHECK(dynamic_cast<const NonZeroDescriptor*>(DescriptorFromC(BP_LAYER_NON_ZERO, nullptr).get()) != nullptr);

  static int destroyed = 0;
  destroyed = 0;
  int token = 0;
  {
    PreCompiledPayload payload(&token, [](void* p) {
      CHECK(p != nullptr);
      ++destroyed;
    });
    const auto* c = static_cast<const BpPreCompiledAttributes*>(attributes.Set(LayerType::kPreCompiled, &payload));
    REQUIRE(c != nullptr);
    CHECK(c->struct_size == sizeof(BpPreCompiledAttributes));
    CHECK(c->payload == &token);
    CHECK(destroyed == 0);
  }
  CHECK(destroyed == 1);
  { PreCompiledPayload no_cleanup(&token, nullptr); }
  CHECK(destroyed == 1);

  CHECK(ErrorOf([&] { DescriptorFromC(BP_LAYER_PRE_COMPILED, &token); }).find("payload") != std::string::npos);
}

TEST_CASE("op attributes: malformed C attributes are refused by name") {
  CHECK(ErrorOf([] { DescriptorFromC(99, nullptr); }) == "unknown layer type 99 (the op set has 54 layer types)");
  CHECK(ErrorOf([] { DescriptorFromC(BP_LAYER_CONVOLUTION_2D, nullptr); }) ==
        "Convolution2d layer without attributes (BpConvolution2dAttributes expected)");

  BpSoftmaxAttributes small{4, 0};
  CHECK(ErrorOf([&] { DescriptorFromC(BP_LAYER_SOFTMAX, &small); }) ==
        "Softmax attributes: BpSoftmaxAttributes struct_size 4 is below " + std::to_string(sizeof(BpSoftmaxAttributes)));

  BpActivationAttributes activation{sizeof(BpActivationAttributes), BP_ACTIVATION_MISH + 1u, 0, 0};
  CHECK(ErrorOf([&] { DescriptorFromC(BP_LAYER_ACTIVATION, &activation); }) ==
        "Activation attributes: unknown activation function " + std::to_string(BP_ACTIVATION_MISH + 1u));

  BpFullyConnectedAttributes fc{sizeof(BpFullyConnectedAttributes), 2, 0, 1, 1};
  CHECK(ErrorOf([&] { DescriptorFromC(BP_LAYER_FULLY_CONNECTED, &fc); }) ==
        "FullyConnected attributes: transpose_a is 2, not 0 or 1");

  BpReshapeAttributes reshape{sizeof(BpReshapeAttributes), nullptr, 3};
  CHECK(ErrorOf([&] { DescriptorFromC(BP_LAYER_RESHAPE, &reshape); }) ==
        "Reshape attributes: shape has 3 entries but is null");

  const std::int64_t dims[] = {2, 2};
  BpConstantAttributes constant{sizeof(BpConstantAttributes), {sizeof(BpTensorInfo), BP_DATA_TYPE_F32, dims, 2}, nullptr};
  CHECK(ErrorOf([&] { DescriptorFromC(BP_LAYER_CONSTANT, &constant); }) ==
        "Constant attributes: data is null for 16 bytes");
  const std::int64_t negative[] = {2, -1};
  constant.info.dims = negative;
  CHECK(ErrorOf([&] { DescriptorFromC(BP_LAYER_CONSTANT, &constant); }).find("negative") != std::string::npos);

  BpCastAttributes cast{sizeof(BpCastAttributes), BP_DATA_TYPE_F64 + 1u};
  CHECK(ErrorOf([&] { DescriptorFromC(BP_LAYER_CAST, &cast); }) ==
        "Cast attributes: unknown data type " + std::to_string(BP_DATA_TYPE_F64 + 1u));
}

TEST_CASE("op attributes: the runtime side refuses descriptors that do not match their type") {
  CAttributes attributes;
  SoftmaxDescriptor softmax;
  CHECK(ErrorOf([&] { attributes.Set(LayerType::kConcat, &softmax); }, ErrorCode::kInternal) ==
        "a Concat layer's descriptor is not of the type its layer type names");
  CHECK(ErrorOf([&] { attributes.Set(LayerType::kPreCompiled, &softmax); }, ErrorCode::kInternal)
            .find("PreCompiled") != std::string::npos);

  SliceDescriptor slice;
  slice.starts = {0, 1};
  slice.ends = {2};
  CHECK(ErrorOf([&] { attributes.Set(LayerType::kSlice, &slice); }) ==
        "Slice descriptor has 2 starts but 1 ends; the counts must be equal");
}

TEST_CASE("op attributes: tensor infos both ways") {
  const TensorInfo info{TensorShape{1, 3, 224, 224}, DataType::kBFloat16};
  const BpTensorInfo c = CTensorInfo(info);
  CHECK(c.struct_size == sizeof(BpTensorInfo));
  CHECK(c.data_type == BP_DATA_TYPE_BF16);
  CHECK(c.rank == 4);
  CHECK(c.dims == info.shape.Dims().data());
  CHECK(TensorInfoFromC(c, "t") == info);

  const TensorInfo scalar{TensorShape{}, DataType::kBool};
  const BpTensorInfo c_scalar = CTensorInfo(scalar);
  CHECK(c_scalar.dims == nullptr);
  CHECK(c_scalar.rank == 0);
  CHECK(TensorInfoFromC(c_scalar, "t") == scalar);

  BpTensorInfo bad = c;
  bad.data_type = 99;
  CHECK(ErrorOf([&] { TensorInfoFromC(bad, "layer 'x' input 0"); }) == "layer 'x' input 0: unknown data type 99");
  bad = c;
  bad.dims = nullptr;
  CHECK(ErrorOf([&] { TensorInfoFromC(bad, "t"); }) == "t: rank 4 with null dims");
  bad = c;
  bad.struct_size = 0;
  CHECK(ErrorOf([&] { TensorInfoFromC(bad, "t"); }).find("struct_size 0") != std::string::npos);
}

TEST_CASE("op attributes: every op of op_attributes.def crosses both ways with no field at its default") {
  // A field the list names but one direction drops (or writes into another field) comes back at
  // its default or wrong: SameFields names it.
#define BP_OP_BEGIN(Name)                                  \
  {                                                        \
    CAPTURE(std::string(#Name));                           \
    const Name##Descriptor modified = Name##Modified();    \
    NoFieldAtDefault(modified);                            \
    CHECK(SameFields(*RoundTrip(modified), modified));     \
  }
#include <backplane/backend/op_attributes.def>
}

TEST_CASE("op attributes: the data-dependent layer types have names both ways") {
  CHECK(std::string(ToString(LayerType::kNonMaxSuppression)) == "NonMaxSuppression");
  CHECK(LayerTypeFromString("Unique") == LayerType::kUnique);
  // Numbers without a layer type (while 40 to 49 are merged apart) have no name to match.
  CHECK_FALSE(LayerTypeFromString("").has_value());
}

}  // namespace

}  // namespace backplane::backend
