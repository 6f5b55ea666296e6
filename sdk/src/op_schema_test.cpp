#include <backplane/backend/op_schema.hpp>
#include <backplane/descriptors.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <limits>
#include <string>

namespace {
using namespace backplane;
using namespace backplane::backend;

TensorInfo F32(TensorShape shape) { return {std::move(shape), DataType::kFloat32}; }

// The inferred outputs of a layer of `descriptor`'s type with `inputs` and `num_outputs`
// outputs; fails the test case (with the schema's reason) when the schema refuses it.
template <typename Descriptor>
std::vector<TensorInfo> Infer(const Descriptor& descriptor, std::vector<TensorInfo> inputs,
                              std::size_t num_outputs = 1) {
  const LayerValues layer(Descriptor::kType, "l", &descriptor, std::move(inputs),
                          std::vector<TensorInfo>(num_outputs));
  std::vector<TensorInfo> outputs;
  std::string why;
  REQUIRE_MESSAGE(InferOutputs(layer, outputs, why), why);
  return outputs;
}

// The schema's reason for refusing the layer; fails the test case when it accepts it.
template <typename Descriptor>
std::string Refusal(const Descriptor& descriptor, std::vector<TensorInfo> inputs, std::size_t num_outputs = 1) {
  const LayerValues layer(Descriptor::kType, "l", &descriptor, std::move(inputs),
                          std::vector<TensorInfo>(num_outputs));
  std::vector<TensorInfo> outputs;
  std::string why;
  CHECK_FALSE(InferOutputs(layer, outputs, why));
  return why;
}

constexpr std::int64_t kHuge = std::numeric_limits<std::int64_t>::max() / 2;
}  // namespace

TEST_CASE("op schema: elementwise ops broadcast like numpy and keep one type") {
  ElementwiseBinaryDescriptor add;
  CHECK(Infer(add, {F32({2, 1, 4}), F32({3, 1})})[0] == F32({2, 3, 4}));
  CHECK(Refusal(add, {F32({2, 3}), F32({4})}).find("do not broadcast") != std::string::npos);
  CHECK(Refusal(add, {F32({2}), {TensorShape{2}, DataType::kInt32}}) == "inputs have different types: f32 and i32");
  // Pow (ONNX's T and T1): an exponent of any number type, the output of the base's.
  ElementwiseBinaryDescriptor pow;
  pow.operation = BinaryOperation::kPow;
  CHECK(Infer(pow, {{TensorShape{2}, DataType::kInt32}, F32({1})})[0] == TensorInfo{TensorShape{2}, DataType::kInt32});
  CHECK(Infer(pow, {F32({2}), {TensorShape{}, DataType::kInt64}})[0] == F32({2}));
  CHECK(Refusal(pow, {F32({2}), {TensorShape{2}, DataType::kBool}}) == "Pow takes a number exponent, not bool");
  ElementwiseBinaryDescriptor less;
  less.operation = BinaryOperation::kLess;
  CHECK(Infer(less, {{TensorShape{2, 1}, DataType::kInt64}, {TensorShape{3}, DataType::kInt64}})[0] ==
        TensorInfo{TensorShape{2, 3}, DataType::kBool});
  ElementwiseBinaryDescriptor logical_and;
  logical_and.operation = BinaryOperation::kAnd;
  CHECK(Infer(logical_and, {{TensorShape{2}, DataType::kBool}, {TensorShape{2}, DataType::kBool}})[0] ==
        TensorInfo{TensorShape{2}, DataType::kBool});
  CHECK(Refusal(logical_and, {F32({2}), F32({2})}) == "a logical operation takes bool inputs, not f32");
  ElementwiseUnaryDescriptor logical_not;
  logical_not.operation = UnaryOperation::kNot;
  CHECK(Infer(logical_not, {{TensorShape{3}, DataType::kBool}})[0] == TensorInfo{TensorShape{3}, DataType::kBool});
  CHECK(Refusal(logical_not, {F32({3})}) == "Not takes a bool input, not f32");
  ElementwiseBinaryDescriptor unknown;
  unknown.operation = static_cast<BinaryOperation>(99);
  CHECK(Refusal(unknown, {F32({2}), F32({2})}) == "unknown binary operation 99");

  ActivationDescriptor relu;
  CHECK(Infer(relu, {F32({5, 6})})[0] == F32({5, 6}));
  CHECK(Refusal(relu, {F32({5}), F32({5})}) == "takes 1 input, has 2");
}

TEST_CASE("op schema: output counts are part of the rules") {
  ActivationDescriptor relu;
  CHECK(Refusal(relu, {F32({5})}, 2) == "has 1 output, this layer has 2");

  SplitDescriptor split;
  split.axis = 1;
  const auto parts = Infer(split, {F32({2, 6})}, 3);
  REQUIRE(parts.size() == 3);
  CHECK(parts[2] == F32({2, 2}));
  CHECK(Refusal(split, {F32({2, 6})}, 0) == "has at least 1 output, this layer has none");
  CHECK(Refusal(split, {F32({2, 7})}, 3).find("does not divide into 3 equal parts") != std::string::npos);
  split.sizes = {1, -1, 6};
  CHECK(Refusal(split, {F32({2, 6})}, 3) == "sizes [1,-1,6] contain the negative size -1");
}

TEST_CASE("op schema: normalization parameters have the shapes their op reads") {
  BatchNormalizationDescriptor bn;
  const TensorInfo c = F32({3});
  CHECK(Infer(bn, {F32({1, 3, 4, 4}), c, c, c, c})[0] == F32({1, 3, 4, 4}));
  CHECK(Refusal(bn, {F32({1, 3, 4, 4}), c, c, F32({1, 3, 1, 1}), c}) ==
        "mean (input 3) has shape [1,3,1,1], expected [3] for the channels of [1,3,4,4]");
  CHECK(Refusal(bn, {F32({3}), c, c, c, c}) == "x [3] has no channel axis (needs [N, C, ...])");

  LayerNormalizationDescriptor ln;
  ln.axis = -2;
  CHECK(Infer(ln, {F32({2, 3, 4}), F32({3, 4}), F32({1, 3, 4})})[0] == F32({2, 3, 4}));
  // Same element count, wrong shape: the backends would read it the wrong way round.
  CHECK(Refusal(ln, {F32({2, 3, 4}), F32({4, 3})}).find("expected the normalized shape [3,4]") != std::string::npos);
  CHECK(Refusal(ln, {F32({2, 3, 4}), F32({2, 3, 4})}).find("scale (input 1)") == 0);
}

TEST_CASE("op schema: Convolution2d bias is one value per output channel") {
  Convolution2dDescriptor conv;
  CHECK(Infer(conv, {F32({1, 3, 5, 5}), F32({8, 3, 3, 3}), F32({8})})[0] == F32({1, 8, 3, 3}));
  CHECK(Refusal(conv, {F32({1, 3, 5, 5}), F32({8, 3, 3, 3}), F32({1, 8})}) ==
        "bias [1,8] must be [8], one per output channel");
  conv.strides = {0, 1};
  CHECK(Refusal(conv, {F32({1, 3, 5, 5}), F32({8, 3, 3, 3})}) ==
        "kernel 3, stride 0 and dilation 1 along H must be at least 1");
}

TEST_CASE("op schema: Reduce, Softmax, Gather, Concat, Pad, Cast and Reshape") {
  ReduceDescriptor mean;
  mean.axes = {-1, 1};
  mean.keep_dims = false;
  CHECK(Infer(mean, {F32({2, 3, 4})})[0] == F32({2}));
  mean.axes = {1, -2};
  CHECK(Refusal(mean, {F32({2, 3, 4})}) == "axis -2 is given twice in [1,-2]");

  SoftmaxDescriptor softmax;
  softmax.axis = 2;
  CHECK(Refusal(softmax, {F32({2, 3})}) == "axis 2 is out of range [-2, 1] for input [2,3] of rank 2");

  GatherDescriptor gather;
  gather.axis = 1;
  CHECK(Infer(gather, {F32({4, 5, 6}), {TensorShape{2, 3}, DataType::kInt64}})[0] == F32({4, 2, 3, 6}));
  CHECK(Refusal(gather, {F32({4, 5}), F32({2})}) == "indices (input 1) must be i32 or i64, not f32");

  ConcatDescriptor concat;
  concat.axis = -1;
  CHECK(Infer(concat, {F32({2, 3}), F32({2, 4})})[0] == F32({2, 7}));
  CHECK(Refusal(concat, {F32({2, 3}), F32({3, 4})}).find("does not fit input 0") != std::string::npos);
  CHECK(Refusal(concat, {F32({2, kHuge}), F32({2, kHuge}), F32({2, kHuge})}).find("overflows") != std::string::npos);

  PadDescriptor pad;
  pad.pads = {1, -2, 0, 3};
  CHECK(Infer(pad, {F32({2, 5})})[0] == F32({3, 6}));
  pad.pads = {0, std::numeric_limits<std::int64_t>::min(), 0, 0};
  CHECK(Refusal(pad, {F32({2, 5})}).find("make axis 1 of [2,5] negative") != std::string::npos);

  CastDescriptor cast;
  cast.to = DataType::kInt32;
  CHECK(Infer(cast, {F32({2})})[0] == TensorInfo{TensorShape{2}, DataType::kInt32});
  cast.to = static_cast<DataType>(42);
  CHECK(Refusal(cast, {F32({2})}) == "unknown data type 42 of the target");

  ReshapeDescriptor reshape;
  reshape.shape = {0, -1};
  CHECK(Infer(reshape, {F32({2, 3, 4})})[0] == F32({2, 12}));
  reshape.shape = {-1, -1};
  CHECK(Refusal(reshape, {F32({2, 3})}) == "target [-1,-1] has more than one -1");
  reshape.shape = {kHuge, 4};
  CHECK(Refusal(reshape, {F32({2, 3})}).find("overflows a 64-bit dimension") != std::string::npos);
}

TEST_CASE("op schema: GatherElements, ArgMinMax, Trilu, Resize and arithmetic on bool") {
  const auto i64 = [](TensorShape shape) { return TensorInfo{std::move(shape), DataType::kInt64}; };
  GatherElementsDescriptor gather;
  gather.axis = -1;
  CHECK(Infer(gather, {F32({3, 4}), i64({2, 7})})[0] == F32({2, 7}));
  CHECK(Refusal(gather, {F32({3, 4}), i64({4, 2})}) ==
        "indices [4,2] must have data's rank and, outside axis 1, no dimension longer than data's [3,4]");
  CHECK(Refusal(gather, {F32({3, 4}), F32({3, 4})}) == "indices (input 1) must be i32 or i64, not f32");

  ArgMinMaxDescriptor arg;
  arg.axis = 1;
  CHECK(Infer(arg, {F32({2, 3, 4})})[0] == i64({2, 1, 4}));
  arg.keep_dims = false;
  CHECK(Infer(arg, {F32({2, 3, 4})})[0] == i64({2, 4}));
  CHECK(Refusal(arg, {F32({2, 0, 4})}) == "axis 1 of [2,0,4] is empty: no index to give");
  arg.operation = static_cast<ArgOperation>(2);
  CHECK(Refusal(arg, {F32({2, 3})}) == "unknown arg operation 2");

  TriluDescriptor trilu;
  CHECK(Infer(trilu, {i64({2, 3, 4})})[0] == i64({2, 3, 4}));
  CHECK(Refusal(trilu, {F32({4})}) == "input must have rank 2 or more, has shape [4]");

  ResizeDescriptor resize;
  resize.sizes = {1, 3, 8, 8};
  resize.scales = {1, 1, 2, 2};
  CHECK(Infer(resize, {F32({1, 3, 4, 4})})[0] == F32({1, 3, 8, 8}));
  resize.scales = {1, 1, 0, 2};
  CHECK(Refusal(resize, {F32({1, 3, 4, 4})}) == "scale 0.000000 of axis 2 is not a positive number");
  resize.scales = {1, 1, 2};
  CHECK(Refusal(resize, {F32({1, 3, 4, 4})}) == "4 sizes and 3 scales for input [1,3,4,4]; need one of each per axis");
  resize.scales = {1, 1, 2, 2};
  resize.coordinate_transformation = ResizeCoordinates::kTfCropAndResize;
  CHECK(Refusal(resize, {F32({1, 3, 4, 4})}).find("tf_crop_and_resize needs 8") != std::string::npos);

  ElementwiseBinaryDescriptor add;
  const TensorInfo flags{TensorShape{2}, DataType::kBool};
  CHECK(Refusal(add, {flags, flags}) == "arithmetic takes numbers, not bool inputs");
}

TEST_CASE("op schema: bit shifts take unsigned integers") {
  ElementwiseBinaryDescriptor shift;
  shift.operation = BinaryOperation::kBitShiftLeft;
  const TensorInfo u8{TensorShape{2, 3}, DataType::kUInt8};
  CHECK(Infer(shift, {u8, {TensorShape{3}, DataType::kUInt8}})[0] == u8);
  shift.operation = BinaryOperation::kBitShiftRight;
  const TensorInfo u64{TensorShape{4}, DataType::kUInt64};
  CHECK(Infer(shift, {u64, u64})[0] == u64);
  const TensorInfo i64{TensorShape{4}, DataType::kInt64};
  CHECK(Refusal(shift, {i64, i64}) == "a bit shift takes unsigned integers (u8, u16, u32, u64), not i64");
  CHECK(Refusal(shift, {F32({4}), F32({4})}) == "a bit shift takes unsigned integers (u8, u16, u32, u64), not f32");
  CHECK(Refusal(shift, {u64, {TensorShape{4}, DataType::kUInt32}}) == "inputs have different types: u64 and u32");
}

TEST_CASE("op schema: GridSample shapes, types and modes") {
  GridSampleDescriptor d;
  CHECK(Infer(d, {F32({2, 3, 5, 7}), F32({2, 4, 6, 2})})[0] == F32({2, 3, 4, 6}));
  CHECK(Infer(d, {F32({2, 3, 5, 7}), F32({2, 0, 6, 2})})[0] == F32({2, 3, 0, 6}));
  CHECK(Refusal(d, {F32({2, 3, 5, 7}), F32({1, 4, 6, 2})}) == "grid [1,4,6,2] must be [2, Ho, Wo, 2] for input [2,3,5,7]");
  CHECK(Refusal(d, {F32({2, 3, 5, 7}), F32({2, 4, 6, 3})}) == "grid [2,4,6,3] must be [2, Ho, Wo, 2] for input [2,3,5,7]");
  CHECK(Refusal(d, {F32({2, 3, 5, 7, 1}), F32({2, 4, 6, 2})}) ==
        "x [N, C, H, W] (input 0) must have rank 4, has shape [2,3,5,7,1]");
  CHECK(Refusal(d, {F32({1, 1, 0, 3}), F32({1, 1, 1, 2})}) == "cannot sample input [1,1,0,3] with no pixels");
  const TensorInfo i32{TensorShape{1, 1, 2, 2}, DataType::kInt32};
  CHECK(Refusal(d, {i32, F32({1, 1, 1, 2})}) == "x and grid must have one floating-point type, have i32 and f32");
  CHECK(Refusal(d, {F32({1, 1, 2, 2}), {TensorShape{1, 1, 1, 2}, DataType::kFloat64}}) ==
        "x and grid must have one floating-point type, have f32 and f64");
  d.padding_mode = static_cast<GridSamplePadding>(3);
  CHECK(Refusal(d, {F32({1, 1, 2, 2}), F32({1, 1, 1, 2})}) == "unknown grid sample padding mode 3");
  d.padding_mode = GridSamplePadding::kReflection;
  d.mode = static_cast<GridSampleMode>(3);
  CHECK(Refusal(d, {F32({1, 1, 2, 2}), F32({1, 1, 1, 2})}) == "unknown grid sample mode 3");
}

TEST_CASE("op schema: ConvolutionTranspose shapes, channels, groups and lists") {
  ConvolutionTransposeDescriptor d;  // 2-D: stride 2, output_padding 1 on W, pads 1 and 0 on H
  d.strides = {2, 2};
  d.dilations = {1, 1};
  d.output_padding = {0, 1};
  d.pads = {1, 0, 0, 0};
  // H: 2 * 2 + 0 + 3 - 1 = 6; W: 2 * 3 + 1 + 3 = 10; M = 2 * groups 1.
  CHECK(Infer(d, {F32({1, 4, 3, 4}), F32({4, 2, 3, 3})})[0] == F32({1, 2, 6, 10}));
  CHECK(Infer(d, {F32({1, 4, 3, 4}), F32({4, 2, 3, 3}), F32({2})})[0] == F32({1, 2, 6, 10}));
  d.groups = 2;  // M = 2 * 2
  CHECK(Infer(d, {F32({1, 4, 3, 4}), F32({4, 2, 3, 3}), F32({4})})[0] == F32({1, 4, 6, 10}));
  CHECK(Refusal(d, {F32({1, 4, 3, 4}), F32({4, 2, 3, 3}), F32({2})}) ==
        "bias [2] must be [4], one per output channel");
  d.groups = 3;
  CHECK(Refusal(d, {F32({1, 4, 3, 4}), F32({4, 2, 3, 3})}) == "input channels 4 are not divisible by groups 3");
  d.groups = 0;
  CHECK(Refusal(d, {F32({1, 4, 3, 4}), F32({4, 2, 3, 3})}) == "groups must be at least 1");
  d.groups = 1;
  CHECK(Refusal(d, {F32({1, 4, 3, 4}), F32({2, 4, 3, 3})}) ==
        "weights [2,4,3,3] need C = 4 in dimension 0 for input [1,4,3,4]");
  CHECK(Refusal(d, {F32({1, 4, 3, 4}), F32({4, 2, 3})}) ==
        "weights [C, M/groups, k1..kS] (input 1) must have rank 4, has shape [4,2,3]");
  CHECK(Refusal(d, {F32({4, 3})}) == "takes 2 to 3 inputs, has 1");
  CHECK(Refusal(d, {F32({4, 3}), F32({4, 3})}) ==
        "x [N, C, D1..DS] must have 1 to 3 spatial axes (rank 3 to 5), has shape [4,3]");
  CHECK(Refusal(d, {F32({1, 4, 5}), F32({4, 2, 3})}) ==
        "strides [2,2], dilations [1,1] and output_padding [0,1] need 1 entries each and pads [1,0,0,0] 2, one per "
        "spatial axis of input [1,4,5]");
  d.pads = {5, 0, 2, 0};
  CHECK(Refusal(d, {F32({1, 4, 3, 4}), F32({4, 2, 3, 3})}) ==
        "pads 5 and 2 along spatial axis 0 leave nothing of its extent 7");
  d.pads = {0, 0, 0, 0};
  d.strides = {0, 2};
  CHECK(Refusal(d, {F32({1, 4, 3, 4}), F32({4, 2, 3, 3})}) ==
        "input extent 3, kernel 3, stride 0 and dilation 1 along spatial axis 0 must be at least 1");

  ConvolutionTransposeDescriptor one;  // 1-D, dilation 2: 1 * 4 + 2 * 2 + 1 = 9
  one.strides = {1};
  one.dilations = {2};
  one.output_padding = {0};
  one.pads = {0, 0};
  CHECK(Infer(one, {F32({2, 3, 5}), F32({3, 1, 3})})[0] == F32({2, 1, 9}));
  ConvolutionTransposeDescriptor three;  // 3-D: 3+2, 4+1, 5+2
  three.strides = {1, 1, 1};
  three.dilations = {1, 1, 1};
  three.output_padding = {0, 0, 0};
  three.pads = {0, 0, 0, 0, 0, 0};
  CHECK(Infer(three, {F32({1, 2, 3, 4, 5}), F32({2, 5, 3, 2, 3})})[0] == F32({1, 5, 5, 5, 7}));
  three.strides = {4, 1, 1};
  CHECK(Refusal(three, {F32({1, 2, kHuge, 4, 5}), F32({2, 5, 3, 2, 3})}).find("overflows a 64-bit dimension") !=
        std::string::npos);
}

TEST_CASE("op schema: TopK, CumSum, ScatterElements and GatherNd") {
  const auto i64 = [](TensorShape shape) { return TensorInfo{std::move(shape), DataType::kInt64}; };
  TopKDescriptor top;
  top.axis = 1;
  top.k = 2;
  const auto outputs = Infer(top, {F32({3, 5})}, 2);
  CHECK(outputs[0] == F32({3, 2}));
  CHECK(outputs[1] == i64({3, 2}));
  top.k = 6;
  CHECK(Refusal(top, {F32({3, 5})}, 2) == "k 6 is not in [0, 5], axis 1's length in [3,5]");

  CumSumDescriptor sum;
  sum.axis = -1;
  CHECK(Infer(sum, {i64({2, 3})})[0] == i64({2, 3}));

  ScatterElementsDescriptor scatter;
  scatter.axis = 0;
  CHECK(Infer(scatter, {F32({3, 3}), i64({2, 3}), F32({2, 3})})[0] == F32({3, 3}));
  CHECK(Refusal(scatter, {F32({3, 3}), i64({2, 3}), F32({3, 2})}) ==
        "updates f32 [3,2] must have the indices' shape [2,3] and data's type f32");

  GatherNdDescriptor gather;
  CHECK(Infer(gather, {F32({2, 3, 4}), i64({5, 2})})[0] == F32({5, 4}));
  gather.batch_dims = 1;
  CHECK(Infer(gather, {F32({2, 3, 4}), i64({2, 1})})[0] == F32({2, 4}));
  CHECK(Refusal(gather, {F32({2, 3, 4}), i64({2, 3})}) == "the last dimension of indices [2,3] must be in [1, 2]");
}

TEST_CASE("op schema: ConvolutionNd shapes, channels, groups and lists") {
  ConvolutionNdDescriptor d;  // 3-D: stride 2 on D, pads 1/0 on D, dilation 2 on W
  d.strides = {2, 1, 1};
  d.dilations = {1, 1, 2};
  d.pads = {1, 0, 0, 0, 0, 0};
  // D: (5 + 1 - 3) / 2 + 1 = 2; H: 4 - 2 + 1 = 3; W: 6 - (2 * 1 + 1) + 1 = 4.
  CHECK(Infer(d, {F32({2, 4, 5, 4, 6}), F32({8, 4, 3, 2, 2})})[0] == F32({2, 8, 2, 3, 4}));
  CHECK(Infer(d, {F32({2, 4, 5, 4, 6}), F32({8, 4, 3, 2, 2}), F32({8})})[0] == F32({2, 8, 2, 3, 4}));
  d.groups = 2;
  CHECK(Infer(d, {F32({2, 4, 5, 4, 6}), F32({8, 2, 3, 2, 2})})[0] == F32({2, 8, 2, 3, 4}));
  CHECK(Refusal(d, {F32({2, 4, 5, 4, 6}), F32({8, 4, 3, 2, 2})}) ==
        "weights [8,4,3,2,2] need C/groups = 2 in dimension 1 for input [2,4,5,4,6] in 2 groups");
  CHECK(Refusal(d, {F32({2, 4, 5, 4, 6}), F32({7, 2, 3, 2, 2})}) == "output channels 7 are not divisible by groups 2");
  CHECK(Refusal(d, {F32({2, 4, 5, 4, 6}), F32({8, 2, 3, 2, 2}), F32({4})}) ==
        "bias [4] must be [8], one per output channel");
  d.groups = 1;
  CHECK(Refusal(d, {F32({2, 4, 5, 4, 6}), F32({8, 4, 3, 2})}) ==
        "weights [M, C/groups, k1..kS] (input 1) must have rank 5, has shape [8,4,3,2]");
  CHECK(Refusal(d, {F32({1, 4, 5}), F32({8, 4, 3})}) ==
        "strides [2,1,1] and dilations [1,1,2] need 1 entries each and pads [1,0,0,0,0,0] 2, one per spatial axis "
        "of input [1,4,5]");
  CHECK(Refusal(d, {F32({1, 2, 3, 4, 5, 6}), F32({8, 4, 3, 2, 2, 1})}) ==
        "x [N, C, D1..DS] must have 1 to 3 spatial axes (rank 3 to 5), has shape [1,2,3,4,5,6]");
  CHECK(Refusal(d, {F32({2, 4, 5, 4, 2}), F32({8, 4, 3, 2, 2})}) ==
        "the window along spatial axis 2 (kernel 2, dilation 2) does not fit the input's 2 padded by 0 and 0");
  d.strides = {2, 0, 1};
  CHECK(Refusal(d, {F32({2, 4, 5, 4, 6}), F32({8, 4, 3, 2, 2})}) ==
        "kernel 2, stride 0 and dilation 1 along spatial axis 1 must be at least 1");

  ConvolutionNdDescriptor one;  // 1-D also runs as ConvolutionNd
  one.strides = {1};
  one.dilations = {1};
  one.pads = {1, 1};
  CHECK(Infer(one, {F32({1, 2, 7}), F32({3, 2, 3})})[0] == F32({1, 3, 7}));
}

TEST_CASE("op schema: MatMulInteger types, zero points and its i32 output") {
  const MatMulIntegerDescriptor d;
  const auto u8 = [](TensorShape shape) { return TensorInfo{std::move(shape), DataType::kUInt8}; };
  const auto i8 = [](TensorShape shape) { return TensorInfo{std::move(shape), DataType::kInt8}; };
  const TensorInfo i32{TensorShape{2, 4, 3}, DataType::kInt32};
  CHECK(Infer(d, {u8({4, 5}), i8({2, 5, 3})})[0] == TensorInfo{TensorShape{2, 4, 3}, DataType::kInt32});
  CHECK(Infer(d, {i8({5}), i8({5})})[0] == TensorInfo{TensorShape{}, DataType::kInt32});
  // Zero points: one value, per row of A ([M, 1]), per column of B ([N]) or batched.
  CHECK(Infer(d, {u8({4, 5}), i8({2, 5, 3}), u8({}), i8({1})})[0] == i32);
  CHECK(Infer(d, {u8({4, 5}), i8({2, 5, 3}), u8({4, 1}), i8({3})})[0] == i32);
  CHECK(Infer(d, {u8({4, 5}), i8({2, 5, 3}), u8({1}), i8({2, 1, 3})})[0] == i32);
  CHECK(Refusal(d, {u8({4, 5}), i8({5, 3}), u8({4})}) == "a_zero_point [4] must be one value or broadcast to [4,5] with 1 along K");
  CHECK(Refusal(d, {u8({4, 5}), i8({5, 3}), u8({1}), i8({5, 3})}) ==
        "b_zero_point [5,3] must be one value or broadcast to [5,3] with 1 along K");
  CHECK(Refusal(d, {u8({4, 5}), i8({5}), u8({1}), i8({5})}) ==
        "b_zero_point [5] must be one value or broadcast to [5] with 1 along K");
  CHECK(Refusal(d, {u8({4, 5}), i8({5, 3}), i8({1})}) == "a_zero_point (input 2) must have input 0's type u8, is i8");
  CHECK(Refusal(d, {F32({4, 5}), i8({5, 3})}) == "A (input 0) must be i8 or u8, is f32");
  CHECK(Refusal(d, {u8({4, 5}), {TensorShape{5, 3}, DataType::kInt32}}) == "B (input 1) must be i8 or u8, is i32");
  CHECK(Refusal(d, {u8({4, 5}), i8({4, 3})}) == "A [4,5] has K = 5 but B [4,3] has K = 4");
}

TEST_CASE("op schema: ConvolutionInteger shapes, zero points and its i32 output") {
  ConvolutionIntegerDescriptor d;  // 2-D, 3x3 kernel, pads 1: same extents
  d.strides = {1, 1};
  d.dilations = {1, 1};
  d.pads = {1, 1, 1, 1};
  const auto u8 = [](TensorShape shape) { return TensorInfo{std::move(shape), DataType::kUInt8}; };
  const auto i8 = [](TensorShape shape) { return TensorInfo{std::move(shape), DataType::kInt8}; };
  const TensorInfo y{TensorShape{1, 4, 5, 6}, DataType::kInt32};
  CHECK(Infer(d, {u8({1, 2, 5, 6}), i8({4, 2, 3, 3})})[0] == y);
  CHECK(Infer(d, {u8({1, 2, 5, 6}), i8({4, 2, 3, 3}), u8({}), i8({4})})[0] == y);
  CHECK(Infer(d, {i8({1, 2, 5, 6}), u8({4, 2, 3, 3}), i8({1}), u8({1})})[0] == y);
  CHECK(Refusal(d, {u8({1, 2, 5, 6}), i8({4, 2, 3, 3}), u8({2})}) == "x_zero_point [2] must be one value ([] or [1])");
  CHECK(Refusal(d, {u8({1, 2, 5, 6}), i8({4, 2, 3, 3}), u8({}), i8({2})}) ==
        "w_zero_point [2] must be one value or [4], one per output channel");
  CHECK(Refusal(d, {u8({1, 2, 5, 6}), i8({4, 2, 3, 3}), u8({}), u8({4})}) ==
        "w_zero_point (input 3) must have input 1's type i8, is u8");
  CHECK(Refusal(d, {F32({1, 2, 5, 6}), i8({4, 2, 3, 3})}) == "x (input 0) must be i8 or u8, is f32");
  CHECK(Refusal(d, {u8({1, 2, 5, 6}), i8({4, 3, 3, 3})}) ==
        "weights [4,3,3,3] need C/groups = 2 in dimension 1 for input [1,2,5,6] in 1 group");
  d.strides = {1};
  CHECK(Refusal(d, {u8({1, 2, 5, 6}), i8({4, 2, 3, 3})}).find("need 2 entries each") != std::string::npos);
}

TEST_CASE("op schema: PoolingNd shapes, ceil_mode, global and lists") {
  PoolingNdDescriptor d;
  d.kernel = {2, 3, 3};
  d.strides = {2, 2, 2};
  d.dilations = {1, 1, 1};
  d.pads = {0, 1, 1, 0, 1, 1};
  // D: (5 - 2) / 2 + 1 = 2 (3 with ceil_mode); H, W: (7 + 2 - 3) / 2 + 1 = 4.
  CHECK(Infer(d, {F32({1, 3, 5, 7, 7})})[0] == F32({1, 3, 2, 4, 4}));
  d.ceil_mode = true;
  CHECK(Infer(d, {F32({1, 3, 5, 7, 7})})[0] == F32({1, 3, 3, 4, 4}));
  d.kernel = {2, 3};
  CHECK(Refusal(d, {F32({1, 3, 5, 7, 7})}) ==
        "kernel [2,3], strides [2,2,2] and dilations [1,1,1] need 3 entries each and pads [0,1,1,0,1,1] 6, one per "
        "spatial axis of input [1,3,5,7,7]");
  d.kernel = {9, 3, 3};
  CHECK(Refusal(d, {F32({1, 3, 5, 7, 7})}) ==
        "the window along spatial axis 0 (kernel 9, dilation 1) does not fit the input's 5 padded by 0 and 0");
  d.type = static_cast<PoolingType>(7);
  CHECK(Refusal(d, {F32({1, 3, 5, 7, 7})}).find("unknown pooling type 7") != std::string::npos);

  PoolingNdDescriptor global;  // the lists are not read
  global.global = true;
  CHECK(Infer(global, {F32({2, 3, 4, 5, 6})})[0] == F32({2, 3, 1, 1, 1}));
  CHECK(Infer(global, {F32({2, 3, 4})})[0] == F32({2, 3, 1}));
  CHECK(Refusal(global, {F32({2, 3, 4, 0, 6})}) == "global pooling of an empty spatial axis 1 in [2,3,4,0,6]");
  CHECK(Refusal(global, {F32({2, 3})}) == "x [N, C, D1..DS] must have 1 to 3 spatial axes (rank 3 to 5), has shape [2,3]");
}

TEST_CASE("op schema: hostile windows and slices get a reason, not a wrapped value") {
  Pooling2dDescriptor pool;
  pool.kernel = {std::numeric_limits<std::uint32_t>::max(), 1};
  pool.dilations = {std::numeric_limits<std::uint32_t>::max(), 1};
  CHECK(Refusal(pool, {F32({1, 1, kHuge, 2})}).find("does not fit") != std::string::npos);
  pool = Pooling2dDescriptor{};
  pool.type = static_cast<PoolingType>(7);
  CHECK(Refusal(pool, {F32({1, 1, 2, 2})}) == "unknown pooling type 7");

  SliceDescriptor slice;
  slice.starts = {std::numeric_limits<std::int64_t>::min()};
  slice.ends = {std::numeric_limits<std::int64_t>::max()};
  slice.steps = {std::numeric_limits<std::int64_t>::min()};
  CHECK(Infer(slice, {F32({5})})[0] == F32({0}));
  slice.steps = {std::numeric_limits<std::int64_t>::max()};
  CHECK(Infer(slice, {F32({5})})[0] == F32({1}));
}

TEST_CASE("op schema: CheckLayer compares the layer's outputs with the inferred ones") {
  ElementwiseBinaryDescriptor add;
  std::string why;
  CHECK(CheckLayer(LayerValues(LayerType::kElementwiseBinary, "a", &add, {F32({2, 3}), F32({3})}, {F32({2, 3})}), why));
  CHECK_FALSE(
      CheckLayer(LayerValues(LayerType::kElementwiseBinary, "a", &add, {F32({2, 3}), F32({3})}, {F32({3, 2})}), why));
  CHECK(why == "output 0 is f32 [3,2], the op gives f32 [2,3]");

  // Layers without a descriptor, or of no known type, are refused, not read.
  CHECK_FALSE(CheckLayer(LayerValues(LayerType::kSoftmax, "s", nullptr, {F32({2})}, {F32({2})}), why));
  CHECK(why == "has no descriptor");
  CHECK_FALSE(CheckLayer(LayerValues(LayerType::kCount, "x", nullptr, {}, {}), why));
  CHECK(why == "unknown layer type " + std::to_string(static_cast<unsigned>(LayerType::kCount)));

  // Input, Constant and PreCompiled layers carry their outputs; Output layers have none.
  CHECK(CheckLayer(LayerValues(LayerType::kInput, "in", nullptr, {}, {F32({7})}), why));
  CHECK(CheckLayer(LayerValues(LayerType::kOutput, "out", nullptr, {F32({7})}, {}), why));
  CHECK_FALSE(CheckLayer(LayerValues(LayerType::kOutput, "out", nullptr, {}, {}), why));
  CHECK(why == "takes 1 input, has 0");
}

TEST_CASE("op schema: Recurrent shapes, optional inputs, types and attributes") {
  RecurrentDescriptor d;  // LSTM forward: T 5, B 2, I 3, H 4; G*H 16
  d.activations = {static_cast<std::uint32_t>(RecurrentActivation::kSigmoid),
                   static_cast<std::uint32_t>(RecurrentActivation::kTanh),
                   static_cast<std::uint32_t>(RecurrentActivation::kTanh)};
  d.activation_alpha = {0, 0, 0};
  d.activation_beta = {0, 0, 0};
  const TensorInfo x = F32({5, 2, 3}), w = F32({1, 16, 3}), r = F32({1, 16, 4});
  const TensorInfo lengths{TensorShape{2}, DataType::kInt32};
  auto outputs = Infer(d, {x, w, r}, 3);
  CHECK(outputs == std::vector<TensorInfo>{F32({5, 1, 2, 4}), F32({1, 2, 4}), F32({1, 2, 4})});
  outputs = Infer(d, {x, w, r, F32({1, 32}), lengths, F32({1, 2, 4}), F32({1, 2, 4}), F32({1, 12})}, 3);
  CHECK(outputs[0] == F32({5, 1, 2, 4}));
  CHECK(Refusal(d, {x, w, r}, 2) == "has 3 outputs, this layer has 2");
  CHECK(Refusal(d, {x, F32({1, 12, 3}), r}, 3) ==
        "W (input 1) has shape [1,12,3], expected [1,16,3] for X [5,2,3] and R [1,16,4]");
  CHECK(Refusal(d, {x, w, r, F32({1, 32}), F32({2})}, 3) == "sequence_lens (input 4) is f32, must be i32");
  CHECK(Refusal(d, {x, w, r, F32({1, 32}), lengths, F32({2, 2, 4})}, 3) ==
        "initial_h (input 5) has shape [2,2,4], expected [1,2,4] for X [5,2,3] and R [1,16,4]");
  d.clip = -1.0f;
  CHECK(Refusal(d, {x, w, r}, 3) == "clip -1.000000 must be 0 (none) or positive");
  d.clip = 0.0f;
  d.linear_before_reset = true;
  CHECK(Refusal(d, {x, w, r}, 3) == "linear_before_reset is GRU's");
  d.linear_before_reset = false;
  d.activations[2] = 11;
  CHECK(Refusal(d, {x, w, r}, 3) == "unknown recurrent activation 11");
  // GRU bidirectional: 2 functions per direction, 2 outputs, no initial_c.
  d.cell = RecurrentCell::kGru;
  d.direction = RecurrentDirection::kBidirectional;
  CHECK(Refusal(d, {x, F32({2, 12, 3}), F32({2, 12, 4})}, 2) ==
        "activations, activation_alpha and activation_beta must have 4 entries (the cell's functions per direction), "
        "have 3, 3 and 3");
  d.activations = {2, 1, 2, 1};
  d.activation_alpha = d.activation_beta = {0, 0, 0, 0};
  outputs = Infer(d, {x, F32({2, 12, 3}), F32({2, 12, 4})}, 2);
  CHECK(outputs == std::vector<TensorInfo>{F32({5, 2, 2, 4}), F32({2, 2, 4})});
  CHECK(Refusal(d, {x, F32({2, 12, 3}), F32({2, 12, 4}), F32({2, 24}), lengths, F32({2, 2, 4}), F32({2, 2, 4})}, 2) ==
        "takes 3 to 6 inputs, has 7");
  const TensorInfo i32{TensorShape{5, 2, 3}, DataType::kInt32};
  CHECK(Refusal(d, {i32, F32({2, 12, 3}), F32({2, 12, 4})}, 2) == "X must be floating-point, is i32");
}

TEST_CASE("op schema: data-dependent ops have upper-bound outputs and an i64 [1] count") {
  const TensorInfo count{TensorShape{1}, DataType::kInt64};
  const auto i64 = [](TensorShape shape) { return TensorInfo{std::move(shape), DataType::kInt64}; };
  const auto bools = [](TensorShape shape) { return TensorInfo{std::move(shape), DataType::kBool}; };
  CHECK(Infer(NonZeroDescriptor{}, {bools({2, 3})}, 2) == std::vector<TensorInfo>{i64({2, 6}), count});
  CHECK(Refusal(NonZeroDescriptor{}, {F32({})}, 2) == "x must have rank 1 or more, has shape []");

  CompressDescriptor compress;
  CHECK(Infer(compress, {F32({2, 3}), bools({4})}, 2) == std::vector<TensorInfo>{F32({4}), count});
  compress.has_axis = true;
  compress.axis = -1;
  CHECK(Infer(compress, {F32({2, 3}), bools({5})}, 2)[0] == F32({2, 3}));  // min(5, 3) along axis 1
  CHECK(Infer(compress, {F32({2, 3}), bools({2})}, 2)[0] == F32({2, 2}));
  CHECK(Refusal(compress, {F32({2, 3}), i64({2})}, 2) == "condition (input 1) must be a 1-D bool tensor, is i64 [2]");

  UniqueDescriptor unique;
  CHECK(Infer(unique, {i64({2, 3})}, 5) == std::vector<TensorInfo>{i64({6}), i64({6}), i64({6}), i64({6}), count});
  unique.has_axis = true;
  unique.axis = 1;
  CHECK(Infer(unique, {F32({2, 3, 4})}, 5) == std::vector<TensorInfo>{F32({2, 3, 4}), i64({3}), i64({3}), i64({3}), count});
  CHECK(Refusal(unique, {bools({2, 3})}, 5) == "x must hold numbers, is bool");

  NonMaxSuppressionDescriptor nms;
  CHECK(Infer(nms, {F32({2, 5, 4}), F32({2, 3, 5})}, 2) == std::vector<TensorInfo>{i64({30, 3}), count});
  CHECK(Infer(nms, {F32({2, 5, 4}), F32({2, 3, 5}), i64({}), F32({1}), F32({})}, 2)[0] == i64({30, 3}));
  CHECK(Refusal(nms, {F32({2, 5, 4}), F32({2, 3, 4})}, 2) == "boxes [2,5,4] and scores [2,3,4] must be [B, N, 4] and [B, C, N]");
  CHECK(Refusal(nms, {F32({1, 5, 4}), F32({1, 1, 5}), F32({1})}, 2) ==
        "max_output_boxes_per_class (input 2) must be one i64 value, is f32 [1]");
}

TEST_CASE("op schema: Dft shapes, lengths, onesided and refusals") {
  DftDescriptor d;  // axis 1, the axis' length
  CHECK(Infer(d, {F32({1, 10, 10, 1})})[0] == F32({1, 10, 10, 2}));
  d.axis = 2;
  d.length = 16;  // zero-padded
  d.onesided = true;
  CHECK(Infer(d, {F32({1, 10, 10, 1})})[0] == F32({1, 10, 9, 2}));
  d.length = 4;  // cut
  d.onesided = false;
  CHECK(Infer(d, {F32({1, 10, 10, 2})})[0] == F32({1, 10, 4, 2}));
  CHECK(Refusal(d, {F32({3, 7, 1})}) ==
        "axis 2 is out of range [0, 1] for input [3,7,1] (the trailing axis holds the real and imaginary parts)");
  d.axis = 0;
  CHECK(Refusal(d, {F32({3, 7, 3})}) ==
        "input must have rank 2 or more and a trailing axis of 1 (real) or 2 (complex), has shape [3,7,3]");
  CHECK(Refusal(d, {{TensorShape{3, 1}, DataType::kInt32}}) == "input must be floating-point, is i32");
  d.onesided = true;
  CHECK(Refusal(d, {F32({3, 2})}) == "onesided takes a real input (a trailing axis of 1), has shape [3,2]");
  d.inverse = true;
  CHECK(Refusal(d, {F32({3, 1})}) == "onesided is not defined for the inverse transform");
  d.onesided = false;
  d.length = -1;
  CHECK(Refusal(d, {F32({3, 1})}) == "length -1 must be positive, or 0 for the axis' length");
}

TEST_CASE("op schema: Lrn and Det shapes and refusals") {
  LrnDescriptor lrn;
  lrn.size = 3;
  CHECK(Infer(lrn, {F32({5, 5, 5, 5})})[0] == F32({5, 5, 5, 5}));
  CHECK(Refusal(lrn, {F32({5, 5})}) == "input must have rank 3 or more ([N, C, D1, ...]), has shape [5,5]");
  lrn.size = 0;
  CHECK(Refusal(lrn, {F32({1, 2, 3})}) == "size must be 1 or more, is 0");
  const DetDescriptor det;
  CHECK(Infer(det, {F32({3, 2, 2})})[0] == F32({3}));
  CHECK(Infer(det, {F32({4, 4})})[0] == F32(TensorShape{}));
  CHECK(Refusal(det, {F32({3, 2})}) == "input must be square matrices [..., M, M], has shape [3,2]");
  CHECK(Refusal(det, {{TensorShape{2, 2}, DataType::kInt64}}) == "input must be floating-point, is i64");
}
