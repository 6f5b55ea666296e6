// Every op CpuOneDnn claims matches CpuRef within 1e-4 relative error, one layer at a time
// (input from the user's host memory, output to it) and in small chains where blocked
// tensors flow between oneDNN layers; and what its workloads tell profiles.
#include "../onednn_test_support.hpp"
#include "implementation.hpp"
#include "../dnnl_compat.hpp"

#include <backplane/backend/op_attributes.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <tuple>

namespace backplane::onednn::testing {
namespace {

inline TensorInfo F32(TensorShape shape) { return {std::move(shape), DataType::kFloat32}; }

// A network of one layer of `descriptor` on input x (plus constants added by `extra`).
template <typename Descriptor>
Network OneLayer(const Descriptor& descriptor, const TensorShape& x_shape,
                 const std::vector<std::pair<TensorShape, bool>>& more_inputs = {}) {
  Network net;
  std::vector<OutputSlot> inputs{net.AddInput("x", F32(x_shape))};
  unsigned seed = 100;
  for (std::size_t i = 0; i < more_inputs.size(); ++i) {
    const auto& [shape, constant] = more_inputs[i];
    inputs.push_back(constant ? Constant(net, "c" + std::to_string(i), shape, seed++)
                              : net.AddInput("in" + std::to_string(i), F32(shape)));
  }
  net.AddOutput("y", net.Add(descriptor, inputs, "op"));
  return net;
}

// A 3x3 convolution of input x [1, 16, 8, 8] into 32 channels: a producer whose result CpuOneDnn
// leaves channel-blocked, for the data movement that reads it.
OutputSlot BlockedConvolution(Network& net) {
  Convolution2dDescriptor conv;
  conv.pads = {1, 1, 1, 1};
  return net.Add(conv, {net.AddInput("x", F32({1, 16, 8, 8})), Constant(net, "w", {32, 16, 3, 3}, 1, 0.2f)}, "conv");
}

// Checks the layer "op" ran on CpuOneDnn and matched CpuRef.
void CheckOp(Runtime& runtime, const Network& net, float low = -1.0f, float high = 1.0f) {
  const Outcome outcome = CheckAgainstReference(runtime, net, InputsFor(runtime, net, low, high));
  std::string reason;
  const std::string backend = BackendOf(outcome, "op", &reason);
  CAPTURE(reason);
  CHECK((backend == "CpuOneDnn" || backend.empty()));  // empty: fused into a CpuOneDnn layer
}

// The steps of one profiled run of `net` on `backends`, with their details.
std::vector<std::pair<ProfiledStep, ProfiledStepDetail>> ProfiledSteps(Runtime& runtime, const Network& net,
                                                                        const std::vector<BackendId>& backends) {
  OptimizeOptions options;
  options.backends = backends;
  const NetworkId id = runtime.LoadNetwork(runtime.Optimize(net, options));
  ExecutionOptions profiled;
  profiled.profiling = true;
  auto context = runtime.CreateExecutionContext(id, profiled);
  RunOnce(runtime, id, *context, InputsFor(runtime, net));
  std::vector<std::pair<ProfiledStep, ProfiledStepDetail>> steps;
  for (std::size_t s = 0; s < context->GetProfiledSteps().size(); ++s) {
    steps.emplace_back(context->GetProfiledSteps()[s], context->GetProfiledStepDetails().at(s));
  }
  runtime.UnloadNetwork(id);
  return steps;
}

TEST_CASE("ops: Convolution2d variants match CpuRef") {
  auto runtime = MakeRuntime();
  struct Case {
    const char* name;
    TensorShape x, w;
    std::array<std::uint32_t, 2> strides, dilations;
    std::array<std::uint32_t, 4> pads;
    std::uint32_t groups;
    bool bias;
  };
  const Case cases[] = {
      {"3x3 padded with bias", {1, 16, 10, 10}, {32, 16, 3, 3}, {1, 1}, {1, 1}, {1, 1, 1, 1}, 1, true},
      {"first layer 3 channels, strided 7x7", {2, 3, 23, 23}, {16, 3, 7, 7}, {2, 2}, {1, 1}, {3, 3, 3, 3}, 1, true},
      {"1x1 no bias", {1, 24, 7, 7}, {40, 24, 1, 1}, {1, 1}, {1, 1}, {0, 0, 0, 0}, 1, false},
      {"dilated asymmetric pads", {1, 16, 12, 12}, {16, 16, 3, 3}, {1, 1}, {2, 2}, {2, 1, 0, 2}, 1, true},
      {"grouped", {1, 32, 9, 9}, {64, 8, 3, 3}, {2, 2}, {1, 1}, {1, 1, 1, 1}, 4, true},
      {"depthwise", {1, 32, 11, 11}, {32, 1, 3, 3}, {1, 1}, {1, 1}, {1, 1, 1, 1}, 32, true},
      {"depthwise multiplier 2 strided", {1, 8, 11, 11}, {16, 1, 5, 5}, {2, 2}, {1, 1}, {2, 2, 2, 2}, 8, false},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    Convolution2dDescriptor conv;
    conv.strides = c.strides;
    conv.dilations = c.dilations;
    conv.pads = c.pads;
    conv.groups = c.groups;
    std::vector<std::pair<TensorShape, bool>> more{{c.w, true}};
    if (c.bias) more.push_back({TensorShape{c.w[0]}, true});
    CheckOp(*runtime, OneLayer(conv, c.x, more));
  }
}

TEST_CASE("ops: ConvolutionTranspose in 1 to 3 spatial axes matches CpuRef, and run-time weights fall back") {
  auto runtime = MakeRuntime();
  struct Case {
    const char* name;
    TensorShape x, w;  // w: [C, M/groups, k...]
    std::vector<std::uint32_t> strides, dilations, output_padding, pads;
    std::uint32_t groups;
    bool bias;
  };
  const Case cases[] = {
      {"2-D stride 2, output_padding, pads", {1, 16, 7, 6}, {16, 8, 3, 3}, {2, 2}, {1, 1}, {1, 1}, {1, 0, 1, 1}, 1, true},
      {"2-D blocked channels, stride 3 and 2", {2, 32, 5, 5}, {32, 16, 4, 3}, {3, 2}, {1, 1}, {2, 1}, {0, 1, 1, 0}, 1,
       false},
      {"2-D grouped, dilated", {1, 8, 6, 5}, {8, 3, 3, 3}, {1, 2}, {2, 1}, {0, 1}, {1, 1, 0, 0}, 4, true},
      {"2-D depthwise", {1, 16, 6, 6}, {16, 1, 4, 4}, {2, 2}, {1, 1}, {0, 0}, {1, 1, 1, 1}, 16, true},
      {"1-D", {2, 4, 9}, {4, 3, 5}, {2}, {1}, {1}, {2, 1}, 1, true},
      {"3-D grouped", {1, 6, 3, 4, 3}, {6, 2, 2, 3, 2}, {2, 1, 2}, {1, 1, 2}, {1, 0, 0}, {0, 1, 0, 0, 0, 1}, 2, true},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    ConvolutionTransposeDescriptor d;
    d.strides = c.strides;
    d.dilations = c.dilations;
    d.output_padding = c.output_padding;
    d.pads = c.pads;
    d.groups = c.groups;
    std::vector<std::pair<TensorShape, bool>> more{{c.w, true}};
    if (c.bias) more.push_back({TensorShape{c.w[1] * c.groups}, true});
    CheckOp(*runtime, OneLayer(d, c.x, more));
  }
  ConvolutionTransposeDescriptor d;
  d.strides = {2, 2};
  d.dilations = {1, 1};
  d.output_padding = {0, 0};
  d.pads = {0, 0, 0, 0};
  const Network net = OneLayer(d, {1, 4, 3, 3}, {{TensorShape{4, 2, 2, 2}, false}});
  const Outcome outcome = CheckAgainstReference(*runtime, net, InputsFor(*runtime, net));
  std::string reason;
  CHECK(BackendOf(outcome, "op", &reason) == "CpuRef");
  CHECK(reason.find("weights and bias computed at run time are not supported") != std::string::npos);
}

TEST_CASE("ops: convolutions in groups of half a channel block match CpuRef between blocked layers") {
  // Groups of 8 channels run paired into 16-channel groups; an odd count pairs its last group
  // with the last channel block's padding, which the next layers read. Between two blocked
  // layers (a 1x1 producer; a pooling and a 1x1 consumer), with activations that keep zero
  // and one (sigmoid) that does not.
  auto runtime = MakeRuntime();
  struct Case {
    std::int64_t channels;
    std::uint32_t stride;
    std::optional<ActivationFunction> activation;
    bool bias;
  };
  const Case cases[] = {
      {24, 1, ActivationFunction::kRelu, true},    {24, 2, ActivationFunction::kRelu, false},
      {24, 1, ActivationFunction::kSigmoid, true}, {40, 1, std::nullopt, true},
      {32, 1, ActivationFunction::kRelu, true},    {40, 2, ActivationFunction::kSilu, true},
  };
  for (const Case& c : cases) {
    CAPTURE(c.channels);
    CAPTURE(c.stride);
    CAPTURE(c.activation.has_value() ? static_cast<int>(*c.activation) : -1);
    Network net;
    const auto x = net.AddInput("x", F32({1, 16, 10, 10}));
    Convolution2dDescriptor pointwise;
    ActivationDescriptor relu;
    const auto expanded = net.Add(
        relu, {net.Add(pointwise, {x, Constant(net, "w1", {c.channels, 16, 1, 1}, 1, 0.25f)}, "expand")}, "relu1");
    Convolution2dDescriptor grouped;
    grouped.groups = static_cast<std::uint32_t>(c.channels / 8);
    grouped.strides = {c.stride, c.stride};
    grouped.pads = {1, 1, 1, 1};
    std::vector<OutputSlot> operands{expanded, Constant(net, "w2", {c.channels, 8, 3, 3}, 2, 0.2f)};
    if (c.bias) operands.push_back(Constant(net, "b2", {c.channels}, 3, 0.1f));
    auto y = net.Add(grouped, operands, "op");
    if (c.activation) {
      ActivationDescriptor activation;
      activation.function = *c.activation;
      y = net.Add(activation, {y}, "act");
    }
    Pooling2dDescriptor gap;
    gap.global = true;
    gap.type = PoolingType::kAverage;
    net.AddOutput("pooled", net.Add(gap, {y}, "gap"));
    net.AddOutput("projected", net.Add(pointwise, {y, Constant(net, "w3", {16, c.channels, 1, 1}, 4, 0.2f)}, "project"));
    const Outcome outcome = CheckAgainstReference(*runtime, net, InputsFor(*runtime, net));
    const std::string backend = BackendOf(outcome, "op");
    CHECK((backend == "CpuOneDnn" || backend.empty()));  // empty: fused with its activation
    CHECK(BackendOf(outcome, "project") == "CpuOneDnn");
  }
}

TEST_CASE("ops: Resize where oneDNN's coordinates are ONNX's matches CpuRef, and the others fall back with a reason") {
  auto runtime = MakeRuntime();
  const auto resize = [](ResizeMode mode, ResizeCoordinates coordinates, ResizeNearest nearest, TensorShape out,
                         std::vector<double> scales) {
    ResizeDescriptor d;
    d.mode = mode;
    d.coordinate_transformation = coordinates;
    d.nearest_mode = nearest;
    d.sizes = out.Dims();
    d.scales = std::move(scales);
    return d;
  };
  // Bilinear upsampling of a segmentation head (x2 and x8, and by 1.5), nearest x2 of a YOLO neck,
  // a 3-D and a 1-D one.
  CheckOp(*runtime, OneLayer(resize(ResizeMode::kLinear, ResizeCoordinates::kHalfPixel, ResizeNearest::kFloor,
                                    {1, 16, 14, 14}, {1, 1, 2, 2}), {1, 16, 7, 7}));
  CheckOp(*runtime, OneLayer(resize(ResizeMode::kLinear, ResizeCoordinates::kPytorchHalfPixel, ResizeNearest::kFloor,
                                    {1, 21, 40, 48}, {1, 1, 8, 8}), {1, 21, 5, 6}));
  CheckOp(*runtime, OneLayer(resize(ResizeMode::kLinear, ResizeCoordinates::kHalfPixel, ResizeNearest::kFloor,
                                    {2, 3, 6, 9}, {1, 1, 1.5, 1.5}), {2, 3, 4, 6}));
  CheckOp(*runtime, OneLayer(resize(ResizeMode::kNearest, ResizeCoordinates::kAsymmetric, ResizeNearest::kFloor,
                                    {1, 32, 10, 12}, {1, 1, 2, 2}), {1, 32, 5, 6}));
  CheckOp(*runtime, OneLayer(resize(ResizeMode::kNearest, ResizeCoordinates::kHalfPixel,
                                    ResizeNearest::kRoundPreferFloor, {1, 8, 4, 9, 6}, {1, 1, 2, 3, 3}), {1, 8, 2, 3, 2}));
  CheckOp(*runtime, OneLayer(resize(ResizeMode::kLinear, ResizeCoordinates::kHalfPixel, ResizeNearest::kFloor,
                                    {2, 4, 12}, {1, 1, 3}), {2, 4, 4}));
  const auto falls_back = [&](const ResizeDescriptor& d, const TensorShape& x, const std::string& why) {
    const Network net = OneLayer(d, x);
    const Outcome outcome = CheckAgainstReference(*runtime, net, InputsFor(*runtime, net));
    std::string reason;
    CHECK(BackendOf(outcome, "op", &reason) == "CpuRef");
    CHECK_MESSAGE(reason.find(why) != std::string::npos, reason);
  };
  falls_back(resize(ResizeMode::kCubic, ResizeCoordinates::kHalfPixel, ResizeNearest::kFloor, {1, 2, 8, 8},
                    {1, 1, 2, 2}), {1, 2, 4, 4}, "oneDNN has no cubic resampling");
  falls_back(resize(ResizeMode::kLinear, ResizeCoordinates::kAlignCorners, ResizeNearest::kFloor, {1, 2, 8, 8},
                    {1, 1, 2, 2}), {1, 2, 4, 4}, "linear resampling other than half_pixel");
  falls_back(resize(ResizeMode::kNearest, ResizeCoordinates::kAsymmetric, ResizeNearest::kFloor, {1, 2, 2, 2},
                    {1, 1, 0.5, 0.5}), {1, 2, 4, 4}, "nearest resampling by a non-integer factor");
  falls_back(resize(ResizeMode::kLinear, ResizeCoordinates::kHalfPixel, ResizeNearest::kFloor, {1, 2, 2, 2},
                    {1, 1, 0.6, 0.6}), {1, 2, 4, 4}, "not the input length times its scale");
}

TEST_CASE("ops: Pooling2d variants match CpuRef") {
  auto runtime = MakeRuntime();
  Pooling2dDescriptor max;
  max.kernel = {3, 3};
  max.strides = {2, 2};
  max.pads = {1, 1, 1, 1};
  Pooling2dDescriptor avg = max;
  avg.type = PoolingType::kAverage;
  Pooling2dDescriptor avg_pad = avg;
  avg_pad.count_include_pad = true;
  Pooling2dDescriptor ceil = max;
  ceil.ceil_mode = true;
  ceil.pads = {0, 0, 0, 0};
  Pooling2dDescriptor dilated = max;
  dilated.dilations = {2, 2};
  dilated.pads = {0, 0, 0, 0};
  Pooling2dDescriptor global;
  global.global = true;
  global.type = PoolingType::kAverage;
  Pooling2dDescriptor global_max = global;
  global_max.type = PoolingType::kMax;
  int i = 0;
  for (const auto& d : {max, avg, avg_pad, ceil, dilated, global, global_max}) {
    CAPTURE(i++);
    CheckOp(*runtime, OneLayer(d, {2, 32, 12, 12}));
    CheckOp(*runtime, OneLayer(d, {1, 3, 10, 10}));
  }
}

TEST_CASE("ops: ConvolutionNd and PoolingNd over 3 spatial axes match CpuRef, and run-time weights fall back") {
  auto runtime = MakeRuntime();
  struct Case {
    const char* name;
    TensorShape x, w;  // w: [M, C/groups, k...]
    std::vector<std::uint32_t> strides, dilations, pads;
    std::uint32_t groups;
    bool bias;
  };
  const Case cases[] = {
      {"3x3x3, pads 1", {1, 3, 4, 8, 8}, {16, 3, 3, 3, 3}, {1, 1, 1}, {1, 1, 1}, {1, 1, 1, 1, 1, 1}, 1, true},
      {"blocked channels, strides 2, asymmetric pads", {2, 16, 5, 7, 6}, {32, 16, 3, 3, 1}, {2, 2, 1}, {1, 1, 1},
       {1, 0, 0, 0, 1, 0}, 1, false},
      {"(2+1)-D: 1x3x3 then 3x1x1", {1, 16, 4, 6, 6}, {16, 16, 1, 3, 3}, {1, 1, 1}, {1, 1, 1}, {0, 1, 1, 0, 1, 1}, 1,
       true},
      {"grouped, dilated", {1, 8, 5, 6, 5}, {8, 2, 2, 2, 3}, {1, 2, 1}, {2, 1, 2}, {0, 1, 2, 1, 0, 2}, 4, true},
      {"1-D", {2, 4, 9}, {6, 4, 3}, {2}, {1}, {1, 1}, 1, true},
  };
  for (const Case& c : cases) {
    CAPTURE(c.name);
    ConvolutionNdDescriptor d;
    d.strides = c.strides;
    d.dilations = c.dilations;
    d.pads = c.pads;
    d.groups = c.groups;
    std::vector<std::pair<TensorShape, bool>> more{{c.w, true}};
    if (c.bias) more.push_back({TensorShape{c.w[0]}, true});
    CheckOp(*runtime, OneLayer(d, c.x, more));
  }
  ConvolutionNdDescriptor d;
  d.strides = {1, 1, 1};
  d.dilations = {1, 1, 1};
  d.pads = {0, 0, 0, 0, 0, 0};
  const Network net = OneLayer(d, {1, 4, 3, 3, 3}, {{TensorShape{4, 4, 2, 2, 2}, false}});
  const Outcome outcome = CheckAgainstReference(*runtime, net, InputsFor(*runtime, net));
  std::string reason;
  CHECK(BackendOf(outcome, "op", &reason) == "CpuRef");
  CHECK(reason.find("weights and bias computed at run time are not supported") != std::string::npos);

  PoolingNdDescriptor max;
  max.kernel = {3, 3, 3};
  max.strides = {2, 2, 2};
  max.dilations = {1, 1, 1};
  max.pads = {1, 1, 1, 1, 1, 1};
  PoolingNdDescriptor avg = max;
  avg.type = PoolingType::kAverage;
  PoolingNdDescriptor avg_pad = avg;
  avg_pad.count_include_pad = true;
  PoolingNdDescriptor ceil = max;
  ceil.ceil_mode = true;
  ceil.pads = {0, 0, 0, 0, 0, 0};
  PoolingNdDescriptor dilated = max;
  dilated.dilations = {1, 2, 2};
  dilated.pads = {0, 1, 0, 1, 0, 1};
  PoolingNdDescriptor global;
  global.global = true;
  global.type = PoolingType::kAverage;
  PoolingNdDescriptor global_max = global;
  global_max.type = PoolingType::kMax;
  int i = 0;
  for (const auto& pool : {max, avg, avg_pad, ceil, dilated, global, global_max}) {
    CAPTURE(i++);
    CheckOp(*runtime, OneLayer(pool, {2, 16, 5, 8, 7}));
    CheckOp(*runtime, OneLayer(pool, {1, 3, 4, 6, 6}));
  }
  PoolingNdDescriptor refused = avg_pad;  // oneDNN has no ceil mode that counts the padding
  refused.ceil_mode = true;
  const Network pool_net = OneLayer(refused, {1, 3, 4, 6, 6});
  const Outcome pool_outcome = CheckAgainstReference(*runtime, pool_net, InputsFor(*runtime, pool_net));
  CHECK(BackendOf(pool_outcome, "op", &reason) == "CpuRef");
  CHECK(reason.find("average pooling counting the padding with ceil mode") != std::string::npos);
}

TEST_CASE("ops: Activation functions match CpuRef") {
  auto runtime = MakeRuntime();
  const std::pair<ActivationFunction, std::pair<float, float>> functions[] = {
      {ActivationFunction::kRelu, {0, 0}},      {ActivationFunction::kClip, {-0.5f, 0.5f}},
      {ActivationFunction::kSigmoid, {0, 0}},   {ActivationFunction::kTanh, {0, 0}},
      {ActivationFunction::kGelu, {0, 0}},      {ActivationFunction::kGeluTanh, {0, 0}},
      {ActivationFunction::kLeakyRelu, {0.1f, 0}}, {ActivationFunction::kHardSwish, {0, 0}},
      {ActivationFunction::kSilu, {0, 0}},      {ActivationFunction::kHardSigmoid, {0.2f, 0.5f}},
      {ActivationFunction::kElu, {0.7f, 0}},    {ActivationFunction::kSelu, {1.6732632f, 1.0507010f}},
      {ActivationFunction::kSoftplus, {0, 0}},  {ActivationFunction::kMish, {0, 0}},
  };
  for (const auto& [function, parameters] : functions) {
    CAPTURE(static_cast<int>(function));
    ActivationDescriptor d;
    d.function = function;
    d.alpha = parameters.first;
    d.beta = parameters.second;
    CheckOp(*runtime, OneLayer(d, {2, 32, 5, 5}), -4.0f, 4.0f);
    CheckOp(*runtime, OneLayer(d, {3, 7}), -4.0f, 4.0f);
  }
}

TEST_CASE("ops: ElementwiseUnary operations match CpuRef, and Pow falls back with a reason") {
  auto runtime = MakeRuntime();
  for (std::uint32_t value = 0; value < backplane::backend::BpEnum<UnaryOperation>::kCount; ++value) {
    const auto op = static_cast<UnaryOperation>(value);
    if (op == UnaryOperation::kNot) continue;  // bool in and out: CpuOneDnn runs f32 only
    CAPTURE(value);
    ElementwiseUnaryDescriptor d;
    d.operation = op;
    const bool inside_one = op == UnaryOperation::kAsin || op == UnaryOperation::kAcos || op == UnaryOperation::kAtanh;
    const float low = op == UnaryOperation::kAcosh ? 1.1f : 0.1f;
    CheckOp(*runtime, OneLayer(d, {2, 16, 3, 3}), low, inside_one ? 0.9f : 2.0f);
  }
  ElementwiseBinaryDescriptor pow;
  pow.operation = BinaryOperation::kPow;
  const Network net = OneLayer(pow, {4, 5}, {{TensorShape{1}, true}});
  const Outcome outcome = CheckAgainstReference(*runtime, net, InputsFor(*runtime, net, 0.5f, 2.0f));
  std::string reason;
  CHECK(BackendOf(outcome, "op", &reason) == "CpuRef");
  CHECK(reason.find("CpuOneDnn") != std::string::npos);
  CHECK(reason.find("Pow") != std::string::npos);
}

TEST_CASE("ops: ElementwiseBinary with broadcasting matches CpuRef") {
  auto runtime = MakeRuntime();
  struct Case {
    BinaryOperation op;
    TensorShape a, b;
    bool b_constant;
  };
  const Case cases[] = {
      {BinaryOperation::kAdd, {2, 32, 4, 4}, {2, 32, 4, 4}, false},
      {BinaryOperation::kMul, {2, 32, 4, 4}, {32, 1, 1}, true},
      {BinaryOperation::kSub, {2, 3, 4}, {4}, false},
      {BinaryOperation::kDiv, {2, 3, 4}, {2, 1, 4}, true},
      {BinaryOperation::kMax, {3, 1}, {3, 5}, false},   // first operand broadcast: swapped
      {BinaryOperation::kMin, {5}, {2, 5}, true},
      {BinaryOperation::kAdd, {1, 16, 8, 8}, {1}, true},
  };
  for (const Case& c : cases) {
    CAPTURE(static_cast<int>(c.op));
    ElementwiseBinaryDescriptor d;
    d.operation = c.op;
    CheckOp(*runtime, OneLayer(d, c.a, {{c.b, c.b_constant}}), 0.5f, 2.0f);
  }
  // Sub with a broadcast first operand swaps and negates: a run-time one, and a constant one
  // (BERT's 1 - mask: a scalar minus the run-time mask).
  ElementwiseBinaryDescriptor sub;
  sub.operation = BinaryOperation::kSub;
  CheckOp(*runtime, OneLayer(sub, {4}, {{TensorShape{3, 4}, false}}));
  {
    Network net;
    auto mask = net.AddInput("mask", F32({2, 1, 1, 8}));
    net.AddOutput("y", net.Add(sub, {net.AddConstant("one", TensorShape{}, std::vector<float>{1.0f}), mask}, "op"));
    CheckOp(*runtime, net);
  }
  // Div with a broadcast first operand cannot be swapped exactly: CpuRef runs it.
  ElementwiseBinaryDescriptor div;
  div.operation = BinaryOperation::kDiv;
  const Network net = OneLayer(div, {4}, {{TensorShape{3, 4}, false}});
  const Outcome outcome = CheckAgainstReference(*runtime, net, InputsFor(*runtime, net, 0.5f, 2.0f));
  CHECK(BackendOf(outcome, "op") == "CpuRef");
}

TEST_CASE("ops: Softmax, BatchNormalization and LayerNormalization match CpuRef") {
  auto runtime = MakeRuntime();
  for (int axis : {-1, 1, 0}) {
    SoftmaxDescriptor d;
    d.axis = axis;
    CheckOp(*runtime, OneLayer(d, {2, 3, 17}), -3.0f, 3.0f);
  }
  BatchNormalizationDescriptor bn;
  bn.epsilon = 1e-3f;
  for (const TensorShape& shape : {TensorShape{2, 32, 5, 5}, TensorShape{2, 3, 5, 5}, TensorShape{4, 6}}) {
    const TensorShape channel{shape[1]};
    Network net;
    auto x = net.AddInput("x", F32(shape));
    auto scale = Constant(net, "scale", channel, 1);
    auto bias = Constant(net, "bias", channel, 2);
    auto mean = Constant(net, "mean", channel, 3);
    auto variance = net.AddConstant("variance", channel, Random(static_cast<std::size_t>(shape[1]), 4, 0.5f, 2.0f));
    net.AddOutput("y", net.Add(bn, {x, scale, bias, mean, variance}, "op"));
    // Without graph passes BatchNormalization is not folded away: CpuOneDnn runs it itself.
    const auto inputs = InputsFor(*runtime, net);
    OptimizeOptions options;
    options.backends = {kOneDnn, kRef};
    options.optimize_graph = false;
    const auto optimized = runtime->Optimize(net, options);
    for (const auto& p : optimized.GetPlacement()) {
      if (p.layer == "op") CHECK(p.backend.Get() == "CpuOneDnn");
    }
    CheckAgainstReference(*runtime, net, inputs);
  }
  for (int axis : {-1, -2}) {
    LayerNormalizationDescriptor ln;
    ln.axis = axis;
    const TensorShape shape{2, 6, 32};
    const TensorShape normalized = axis == -1 ? TensorShape{32} : TensorShape{6, 32};
    Network net;
    auto x = net.AddInput("x", F32(shape));
    net.AddOutput("y", net.Add(ln, {x, Constant(net, "scale", normalized, 5), Constant(net, "bias", normalized, 6)}, "op"));
    CheckOp(*runtime, net);
  }
}

TEST_CASE("ops: Lrn of odd sizes over ranks 3 to 5 matches CpuRef, and an even size falls back with a reason") {
  auto runtime = MakeRuntime();
  LrnDescriptor d;
  d.alpha = 0.2f;
  d.beta = 0.75f;
  d.bias = 2.0f;
  for (const std::uint32_t size : {1u, 3u, 5u}) {
    d.size = size;
    for (const TensorShape& shape : {TensorShape{2, 7, 9}, TensorShape{2, 20, 5, 5}, TensorShape{1, 6, 3, 4, 2}}) {
      CAPTURE(size);
      CAPTURE(ToString(shape));
      CheckOp(*runtime, OneLayer(d, shape), -3.0f, 3.0f);
    }
  }
  d.size = 4;
  const Network even = OneLayer(d, {2, 7, 3, 3});
  const Outcome outcome = CheckAgainstReference(*runtime, even, InputsFor(*runtime, even));
  std::string reason;
  CHECK(BackendOf(outcome, "op", &reason) == "CpuRef");
  CHECK(reason.find("size 4 is even") != std::string::npos);
}

TEST_CASE("ops: Softmax along the last axis matches CpuRef at any row length, with masked entries") {
  // On AVX-512 CPUs our row kernel (attention's softmax): full vectors, tails, exponents that
  // underflow, and -inf from an additive mask.
  auto runtime = MakeRuntime();
  SoftmaxDescriptor softmax;
  softmax.axis = -1;
  for (const TensorShape& shape : {TensorShape{1, 1}, TensorShape{3, 5}, TensorShape{4, 16}, TensorShape{2, 3, 17},
                                   TensorShape{2, 3, 197}, TensorShape{12, 8, 128}}) {
    CAPTURE(ToString(shape));
    CheckOp(*runtime, OneLayer(softmax, shape), -30.0f, 30.0f);
  }
  Network masked;
  const TensorShape shape{2, 4, 37};
  std::vector<float> mask(static_cast<std::size_t>(shape.NumElements()), 0.0f);
  for (std::size_t i = 0; i < mask.size(); i += 3) mask[i] = -std::numeric_limits<float>::infinity();
  ElementwiseBinaryDescriptor add;
  const auto scores = masked.Add(add, {masked.AddInput("x", F32(shape)), masked.AddConstant("mask", shape, mask)}, "masked");
  masked.AddOutput("y", masked.Add(softmax, {scores}, "op"));
  CheckOp(*runtime, masked);
  // Masked entries (-inf, or BERT's -10000 added) and far tails come out of the row kernel as
  // exactly 0, never as denormals (which would slow the product reading them some 40x).
  if (compat::Avx512CoreEffective()) {
    Network far;
    std::vector<float> bias(static_cast<std::size_t>(shape.NumElements()), 0.0f);
    for (std::size_t i = 0; i < bias.size(); i += 3) bias[i] = i % 2 ? -10000.0f : -std::numeric_limits<float>::infinity();
    for (std::size_t i = 1; i < bias.size(); i += 7) bias[i] = -88.5f;  // e^-88.5 is a denormal
    const auto biased = far.Add(add, {far.AddInput("x", F32(shape)), far.AddConstant("bias", shape, bias)}, "biased");
    far.AddOutput("y", far.Add(softmax, {biased}, "op"));
    const auto inputs = InputsFor(*runtime, far, -0.01f, 0.01f);
    const Outcome outcome = RunOn(*runtime, far, {kOneDnn, kRef}, inputs);
    CHECK(BackendOf(outcome, "op") == "CpuOneDnn");
    std::size_t denormals = 0, masked_nonzero = 0;
    for (std::size_t i = 0; i < bias.size(); ++i) {
      const float y = outcome.outputs.at(0).at(i);
      denormals += y != 0.0f && std::fabs(y) < std::numeric_limits<float>::min();
      masked_nonzero += bias[i] < -1000.0f && y != 0.0f;
    }
    CHECK(denormals == 0);
    CHECK(masked_nonzero == 0);
  }
  if (compat::Avx512CoreEffective()) {
    for (const auto& [step, detail] : ProfiledSteps(*runtime, OneLayer(softmax, {2, 3, 197}), {kOneDnn})) {
      if (step.layer == "op") CHECK(detail.implementation == "backplane:avx512 row softmax");
    }
  }
}

TEST_CASE("ops: Reduce mean, sum, product and the norms over any axes, with and without keep_dims, match CpuRef") {
  auto runtime = MakeRuntime();
  const std::vector<std::vector<std::int32_t>> axes_cases{{}, {-1}, {2, 3}, {1}, {0, 2}};
  for (const auto operation : {ReduceOperation::kMean, ReduceOperation::kSum, ReduceOperation::kProd,
                               ReduceOperation::kL1, ReduceOperation::kL2, ReduceOperation::kSumSquare}) {
    for (const auto& axes : axes_cases) {
      for (const bool keep_dims : {true, false}) {
        CAPTURE(static_cast<int>(operation));
        CAPTURE(axes.size());
        CAPTURE(keep_dims);
        ReduceDescriptor d;
        d.operation = operation;
        d.axes = axes;
        d.keep_dims = keep_dims;
        CheckOp(*runtime, OneLayer(d, {2, 24, 5, 7}));
      }
    }
  }
}

TEST_CASE("ops: comparisons (bool output) fall back to CpuRef with a reason") {
  auto runtime = MakeRuntime();
  ElementwiseBinaryDescriptor less;
  less.operation = BinaryOperation::kLess;
  Network net;
  const TensorInfo info{TensorShape{4, 5}, DataType::kFloat32};
  net.AddOutput("y", net.Add(less, {net.AddInput("a", info), net.AddInput("b", info)}, "op"));
  OptimizeOptions options;
  options.backends = {kOneDnn, BackendId("CpuRef")};
  const OptimizedNetwork optimized = runtime->Optimize(net, options);
  bool found = false;
  for (const auto& placement : optimized.GetPlacement()) {
    if (placement.layer != "op") continue;
    found = true;
    CHECK(placement.backend == BackendId("CpuRef"));
    CHECK(placement.reason.find("CpuOneDnn runs Add, Sub, Mul, Div, Max and Min") != std::string::npos);
  }
  CHECK(found);
}

TEST_CASE("ops: Reduce max, min, log-sum and log-sum-exp fall back to CpuRef with a reason") {
  auto runtime = MakeRuntime();
  for (const auto operation : {ReduceOperation::kMax, ReduceOperation::kMin, ReduceOperation::kLogSum,
                               ReduceOperation::kLogSumExp}) {
    CAPTURE(static_cast<int>(operation));
    ReduceDescriptor d;
    d.operation = operation;
    d.axes = {1};
    const Network net = OneLayer(d, {2, 24, 5, 7});
    const Outcome outcome = CheckAgainstReference(*runtime, net, InputsFor(*runtime, net, 0.5f, 2.0f));
    std::string reason;
    CHECK(BackendOf(outcome, "op", &reason) == "CpuRef");
    CHECK(reason.find("CpuOneDnn runs mean, sum, product") != std::string::npos);
  }
}

TEST_CASE("ops: a Reduce over axes of length 1 only falls back to CpuRef with a reason, not a load failure") {
  auto runtime = MakeRuntime();
  ReduceDescriptor d;
  d.operation = ReduceOperation::kSum;
  d.axes = {1};
  const Network net = OneLayer(d, {2, 1, 3});
  const Outcome outcome = CheckAgainstReference(*runtime, net, InputsFor(*runtime, net, 0.5f, 2.0f));
  std::string reason;
  CHECK(BackendOf(outcome, "op", &reason) == "CpuRef");
  CHECK(reason.find("every reduced axis has length 1") != std::string::npos);
}

TEST_CASE("ops: FullyConnected, MatMul, Concat, Transpose and Reshape match CpuRef") {
  auto runtime = MakeRuntime();
  for (bool ta : {false, true}) {
    for (bool tb : {false, true}) {
      FullyConnectedDescriptor fc;
      fc.transpose_a = ta;
      fc.transpose_b = tb;
      fc.alpha = ta ? 0.5f : 1.0f;
      fc.beta = tb ? 2.0f : 1.0f;
      CAPTURE(ta);
      CAPTURE(tb);
      const TensorShape a = ta ? TensorShape{33, 5} : TensorShape{5, 33};
      const TensorShape b = tb ? TensorShape{17, 33} : TensorShape{33, 17};
      CheckOp(*runtime, OneLayer(fc, a, {{b, true}, {TensorShape{17}, true}}));
      CheckOp(*runtime, OneLayer(fc, a, {{b, false}}));
    }
  }
  MatMulDescriptor mm;
  CheckOp(*runtime, OneLayer(mm, {2, 3, 7, 16}, {{TensorShape{16, 9}, true}}));
  CheckOp(*runtime, OneLayer(mm, {2, 3, 7, 16}, {{TensorShape{2, 3, 16, 9}, false}}));
  CheckOp(*runtime, OneLayer(mm, {1, 7, 16}, {{TensorShape{4, 16, 9}, false}}));
  CheckOp(*runtime, OneLayer(mm, {16}, {{TensorShape{16, 9}, true}}));
  CheckOp(*runtime, OneLayer(mm, {3, 16}, {{TensorShape{16}, false}}));

  ConcatDescriptor concat;
  concat.axis = 1;
  CheckOp(*runtime, OneLayer(concat, {1, 16, 5, 5}, {{TensorShape{1, 24, 5, 5}, false}, {TensorShape{1, 8, 5, 5}, true}}));
  // Dense slices written straight into the user's output (a detector's heads, [1, N, 85] each),
  // from the user's memory, a constant and a CpuOneDnn layer's result.
  CheckOp(*runtime, OneLayer(concat, {1, 7, 5}, {{TensorShape{1, 3, 5}, false}, {TensorShape{1, 2, 5}, true}}));
  {
    Network net;
    ActivationDescriptor sigmoid;
    sigmoid.function = ActivationFunction::kSigmoid;
    const auto head = net.Add(sigmoid, {net.AddInput("x", F32({1, 48, 85}))}, "sigmoid");
    net.AddOutput("y", net.Add(concat, {head, net.AddInput("more", F32({1, 12, 85}))}, "op"));
    CheckOp(*runtime, net);
  }
  concat.axis = -1;
  CheckOp(*runtime, OneLayer(concat, {2, 3}, {{TensorShape{2, 5}, false}}));

  TransposeDescriptor transpose;
  transpose.permutation = {0, 2, 3, 1};
  CheckOp(*runtime, OneLayer(transpose, {2, 16, 3, 5}));
  ReshapeDescriptor reshape;
  reshape.shape = {2, -1};
  CheckOp(*runtime, OneLayer(reshape, {2, 16, 3, 5}));
  FlattenDescriptor flatten;
  flatten.axis = 1;
  CheckOp(*runtime, OneLayer(flatten, {2, 16, 3, 5}));
  SliceDescriptor slice;
  slice.starts = {1, -4};
  slice.ends = {3, 100};
  slice.axes = {1, 3};
  CheckOp(*runtime, OneLayer(slice, {2, 16, 3, 5}));
  // Positive steps (Swin's patch merging takes x[..., 0::2, 1::2, :]), from a blocked producer too.
  SliceDescriptor every_other;
  every_other.starts = {0, 1, 2};
  every_other.ends = {100, 100, 14};
  every_other.axes = {1, 2, 3};
  every_other.steps = {2, 2, 3};
  CheckOp(*runtime, OneLayer(every_other, {2, 16, 8, 15}));
  // 9 steps of 2 over 17 elements: oneDNN cannot describe the view, CpuRef runs it.
  {
    const Network odd = OneLayer(every_other, {2, 17, 8, 15});
    const Outcome outcome = CheckAgainstReference(*runtime, odd, InputsFor(*runtime, odd));
    std::string reason;
    CHECK(BackendOf(outcome, "op", &reason) == "CpuRef");
    CHECK(reason.find("a stepped view oneDNN cannot describe") != std::string::npos);
  }
  {
    Network net;
    const auto c = BlockedConvolution(net);
    SliceDescriptor strided;
    strided.starts = {1, 0};
    strided.ends = {8, 8};
    strided.axes = {2, 3};
    strided.steps = {2, 2};
    net.AddOutput("y", net.Add(strided, {c}, "op"));
    CheckOp(*runtime, net);
  }
  // Split: equal parts along the last axis (attention's QKV), unequal ones along axis 1, and
  // from a blocked producer.
  for (const auto& [axis, sizes, shape] :
       {std::tuple<std::int32_t, std::vector<std::int64_t>, TensorShape>{-1, {}, {1, 8, 24}},
        {1, {3, 9, 4}, {2, 16, 3, 5}}}) {
    SplitDescriptor split;
    split.axis = axis;
    split.sizes = sizes;
    const std::uint32_t parts = sizes.empty() ? 3u : static_cast<std::uint32_t>(sizes.size());
    Network net;
    const LayerId op = net.AddLayer(split, "op", {net.AddInput("x", F32(shape))}, parts);
    for (std::uint32_t i = 0; i < parts; ++i) net.AddOutput("y" + std::to_string(i), {op, i});
    CheckOp(*runtime, net);
  }
  {
    Network net;
    const auto c = BlockedConvolution(net);
    SplitDescriptor halves;
    halves.axis = 1;
    const LayerId op = net.AddLayer(halves, "op", {c}, 2);
    net.AddOutput("y0", {op, 0});
    net.AddOutput("y1", {op, 1});
    CheckOp(*runtime, net);
  }
  {  // parts that cut through a channel block, along the channels and along the rows
    for (const std::int32_t axis : {1, 2}) {
      Network net;
      const auto c = BlockedConvolution(net);
      SplitDescriptor uneven;
      uneven.axis = axis;
      uneven.sizes = axis == 1 ? std::vector<std::int64_t>{5, 20, 7} : std::vector<std::int64_t>{3, 1, 4};
      const LayerId op = net.AddLayer(uneven, "op", {c}, 3);
      for (std::uint32_t i = 0; i < 3; ++i) net.AddOutput("y" + std::to_string(i), {op, i});
      CheckOp(*runtime, net);
    }
  }
  // Negative steps: CpuRef runs it.
  slice.steps = {1, -1};
  slice.starts = {1, -1};
  slice.ends = {3, 0};
  const Network reversed = OneLayer(slice, {2, 16, 3, 5});
  const Outcome outcome = CheckAgainstReference(*runtime, reversed, InputsFor(*runtime, reversed));
  std::string reason;
  CHECK(BackendOf(outcome, "op", &reason) == "CpuRef");
  CHECK(reason.find("steps below 1") != std::string::npos);
}

}  // namespace
}  // namespace backplane::onednn::testing

namespace backplane::onednn::testing {
namespace {

TEST_CASE("ops: a batch-1 product with weights too large to stay cached (an inner product) matches CpuRef") {
  // 1024 x 1024 f32 weights (4 MiB) read by one row: matrix_product.cpp streams them row-major
  // (BuildStreamedRow). Both layouts of B; a bias, or C as a post-op operand (alpha != 1); a
  // fused activation after it.
  auto runtime = MakeRuntime();
  for (bool tb : {false, true}) {
    for (float alpha : {1.0f, 0.5f}) {
      CAPTURE(tb);
      CAPTURE(alpha);
      Network net;
      const auto x = net.AddInput("x", F32({1, 1024}));
      FullyConnectedDescriptor fc;
      fc.transpose_b = tb;
      fc.alpha = alpha;
      const auto weights = Constant(net, "w", {1024, 1024}, 3, 0.05f);
      const auto y = net.Add(fc, {x, weights, Constant(net, "c", {1024}, 4)}, "op");
      ActivationDescriptor relu;
      relu.function = ActivationFunction::kRelu;
      net.AddOutput("y", net.Add(relu, {y}, "relu"));
      CheckOp(*runtime, net);
    }
  }
}

TEST_CASE("ops: consumers that expect another layout than the producer wrote reorder correctly") {
  // conv (blocked output) -> softmax over channels (dense) ; conv -> transpose ; conv -> concat
  // with a host tensor ; conv -> flatten -> fully connected.
  auto runtime = MakeRuntime();
  Network net;
  auto x = net.AddInput("x", F32({2, 16, 6, 6}));
  Convolution2dDescriptor conv;
  conv.pads = {1, 1, 1, 1};
  auto c = net.Add(conv, {x, Constant(net, "w", {32, 16, 3, 3}, 1, 0.2f), Constant(net, "b", {32}, 2)}, "conv");
  SoftmaxDescriptor softmax;
  softmax.axis = 1;
  net.AddOutput("softmax_out", net.Add(softmax, {c}, "softmax"));
  TransposeDescriptor transpose;
  transpose.permutation = {0, 2, 3, 1};
  net.AddOutput("transposed_out", net.Add(transpose, {c}, "transpose"));
  ConcatDescriptor concat;
  concat.axis = 1;
  net.AddOutput("concat_out", net.Add(concat, {c, x}, "concat"));
  FlattenDescriptor flatten;
  FullyConnectedDescriptor fc;
  auto f = net.Add(flatten, {c}, "flatten");
  net.AddOutput("fc_out", net.Add(fc, {f, Constant(net, "fc_w", {7, 32 * 36}, 3, 0.05f)}, "fc"));
  const Outcome outcome = CheckAgainstReference(*runtime, net, {Random(2 * 16 * 36, 5)});
  for (const char* layer : {"conv", "softmax", "transpose", "concat", "flatten", "fc"}) {
    CAPTURE(layer);
    CHECK(BackendOf(outcome, layer) == "CpuOneDnn");
  }
  CHECK(EdgeFactory(outcome, "conv", "softmax") == "Backplane/CpuOneDnn/Blocked");
}

TEST_CASE("ops: concats of whole channel blocks read their inputs in place, run after run") {
  // From the second run on the producers write into the concat's output (WriteInto), so a
  // stale or misplaced slice shows only in later runs: three runs, new inputs each time.
  // Channel concat of two convolutions and a tensor given twice (16 + 32 + 16), one of them
  // also read by an activation and a network output; a channel concat with 24 + 8 channels
  // (not whole blocks: dense slices, the blocked convolution outputs copied in); a plain concat
  // along rows with a constant.
  auto runtime = MakeRuntime();
  Network net;
  auto x = net.AddInput("x", F32({1, 16, 6, 6}));
  Convolution2dDescriptor conv;
  conv.pads = {1, 1, 1, 1};
  auto a = net.Add(conv, {x, Constant(net, "wa", {16, 16, 3, 3}, 1, 0.2f)}, "conv_a");
  auto b = net.Add(conv, {x, Constant(net, "wb", {32, 16, 3, 3}, 2, 0.2f)}, "conv_b");
  ActivationDescriptor relu;
  net.AddOutput("relu_a_out", net.Add(relu, {a}, "relu_a"));
  net.AddOutput("b_out", b);
  ConcatDescriptor channels;
  channels.axis = 1;
  auto joined = net.Add(channels, {a, b, a}, "op");
  net.AddOutput("y", net.Add(conv, {joined, Constant(net, "wy", {16, 64, 3, 3}, 3, 0.1f)}, "conv_y"));
  auto c = net.Add(conv, {x, Constant(net, "wc", {24, 16, 3, 3}, 4, 0.2f)}, "conv_c");
  auto d = net.Add(conv, {x, Constant(net, "wd", {8, 16, 3, 3}, 5, 0.2f)}, "conv_d");
  net.AddOutput("odd_blocks", net.Add(channels, {c, d}, "odd_concat"));
  auto rows = net.AddInput("rows", F32({1, 5, 8}));
  ConcatDescriptor along_rows;
  along_rows.axis = 1;
  auto rows_joined = net.Add(along_rows, {Constant(net, "first_row", {1, 1, 8}, 6), rows}, "row_concat");
  net.AddOutput("rows_out", net.Add(relu, {rows_joined}, "relu_rows"));

  CheckRunsAgainstReference(*runtime, net, {16 * 36, 5 * 8});
}

TEST_CASE("ops: transposes relabel their input's content where that copies nothing or only moves the copy") {
  // h = relu(x), a plain CpuOneDnn tensor [1, 4, 5, 16]:
  // - h -> NCHW transpose (one reader, relabelled channels-last) -> conv (reorders it) ->
  //   NHWC transpose (relabelled blocked) -> softmax (reorders it);
  // - h -> NCHW transpose read by a relu and a softmax (two readers: copied);
  // - h -> NCHW transpose (relabelled channels-last) -> NHWC transpose (relabelled to plain:
  //   nothing copied at all) -> matmul;
  // - a channel shuffle of the conv's output.
  auto runtime = MakeRuntime();
  Network net;
  ActivationDescriptor relu;
  auto h = net.Add(relu, {net.AddInput("x", F32({1, 4, 5, 16}))}, "h");
  TransposeDescriptor to_nchw, to_nhwc;
  to_nchw.permutation = {0, 3, 1, 2};
  to_nhwc.permutation = {0, 2, 3, 1};
  Convolution2dDescriptor conv;
  conv.pads = {1, 1, 1, 1};
  auto c = net.Add(conv, {net.Add(to_nchw, {h}, "h_nchw_for_conv"), Constant(net, "w", {32, 16, 3, 3}, 1, 0.2f)}, "conv");
  SoftmaxDescriptor softmax;
  net.AddOutput("softmax_out", net.Add(softmax, {net.Add(to_nhwc, {c}, "conv_nhwc")}, "softmax"));
  auto read_twice = net.Add(to_nchw, {h}, "h_nchw_read_twice");
  net.AddOutput("relu_out", net.Add(relu, {read_twice}, "relu"));
  net.AddOutput("softmax2_out", net.Add(softmax, {read_twice}, "softmax2"));
  auto round_trip = net.Add(to_nhwc, {net.Add(to_nchw, {h}, "h_nchw")}, "h_back");
  MatMulDescriptor mm;
  net.AddOutput("mm_out", net.Add(mm, {round_trip, Constant(net, "mw", {16, 8}, 2, 0.2f)}, "mm"));
  // ShuffleNet's channel shuffle of the conv's blocked output: Reshape (blocked: reordered once
  // into its dense output), Transpose (relabelled), Reshape (reordered once).
  ReshapeDescriptor split_groups, merge_groups;
  split_groups.shape = {1, 2, 16, 4, 5};
  merge_groups.shape = {1, 32, 4, 5};
  TransposeDescriptor swap_groups;
  swap_groups.permutation = {0, 2, 1, 3, 4};
  auto shuffled = net.Add(merge_groups, {net.Add(swap_groups, {net.Add(split_groups, {c}, "split")}, "swap")}, "merge");
  net.AddOutput("shuffled_out", net.Add(relu, {shuffled}, "relu_shuffled"));
  CheckRunsAgainstReference(*runtime, net, {4 * 5 * 16});
  CheckOp(*runtime, OneLayer(to_nchw, {1, 4, 5, 16}));  // the user's memory in and out: copied
}

TEST_CASE("ops: reshapes that keep the bytes share their input's, and copy where they cannot") {
  // A CpuOneDnn tensor read by a Reshape (shared), by a Transpose that moves only a size-1 axis
  // (shared) and by an activation; a Reshape of the network input (imported memory: copied);
  // a shared tensor that is also a network output (the user's memory: copied).
  auto runtime = MakeRuntime();
  Network net;
  auto x = net.AddInput("x", F32({2, 6, 8}));
  ElementwiseBinaryDescriptor add;
  add.operation = BinaryOperation::kAdd;
  auto biased = net.Add(add, {x, Constant(net, "c", {8}, 1)}, "biased");
  ReshapeDescriptor to_rows;
  to_rows.shape = {2, 48};
  auto flat = net.Add(to_rows, {biased}, "flat");
  MatMulDescriptor mm;
  net.AddOutput("fc_out", net.Add(mm, {flat, Constant(net, "w", {48, 5}, 2, 0.2f)}, "fc"));
  net.AddOutput("flat_out", flat);
  ReshapeDescriptor with_unit;
  with_unit.shape = {2, 1, 6, 8};
  TransposeDescriptor unit_moves;
  unit_moves.permutation = {0, 2, 1, 3};
  auto moved = net.Add(unit_moves, {net.Add(with_unit, {biased}, "with_unit")}, "unit_transpose");
  SoftmaxDescriptor softmax;
  net.AddOutput("softmax_out", net.Add(softmax, {moved}, "softmax"));
  ActivationDescriptor relu;
  net.AddOutput("relu_out", net.Add(relu, {biased}, "relu"));
  ReshapeDescriptor input_rows;
  input_rows.shape = {12, 8};
  net.AddOutput("x_rows_out", net.Add(input_rows, {x}, "x_rows"));
  const Outcome outcome = CheckAgainstReference(*runtime, net, {Random(2 * 6 * 8, 3)});
  for (const char* layer : {"biased", "flat", "fc", "with_unit", "unit_transpose", "softmax", "relu", "x_rows"}) {
    CAPTURE(layer);
    CHECK(BackendOf(outcome, layer) == "CpuOneDnn");
  }

  // A pooled head's Flatten: [1, 32, 1, 1] channel-blocked is its dense bytes (shared); with 24
  // channels the blocks are padded (reordered).
  Network heads;
  const auto image = heads.AddInput("x", F32({1, 16, 6, 6}));
  for (const std::int64_t channels : {32, 24}) {
    const std::string name = "c" + std::to_string(channels);
    Convolution2dDescriptor conv;
    conv.pads = {1, 1, 1, 1};
    const auto features = heads.Add(conv, {image, Constant(heads, name + "_w", {channels, 16, 3, 3}, 5, 0.2f)}, name);
    Pooling2dDescriptor pool;
    pool.type = PoolingType::kAverage;
    pool.global = true;
    FlattenDescriptor flatten;
    flatten.axis = 1;
    const auto flat_head = heads.Add(flatten, {heads.Add(pool, {features}, name + "_pool")}, name + "_flatten");
    FullyConnectedDescriptor fc;
    const auto fc_weights = Constant(heads, name + "_fc_w", {10, channels}, 6);
    heads.AddOutput(name + "_out", heads.Add(fc, {flat_head, fc_weights}, name + "_fc"));
  }
  const Outcome pooled = CheckAgainstReference(*runtime, heads, {Random(16 * 36, 4)});
  CHECK(BackendOf(pooled, "c32_flatten") == "CpuOneDnn");
  CHECK(BackendOf(pooled, "c24_flatten") == "CpuOneDnn");
}

TEST_CASE("ops: profiles name oneDNN's implementation, count a fused convolution's FLOPs, flag reference kernels") {
  // The rule: oneDNN's reference kernels are a slow path, its optimized ones are not.
  CHECK(DescribeImplementation("jit:avx2").slow_path.empty());
  CHECK(DescribeImplementation("gemm:jit").slow_path.empty());
  CHECK(DescribeImplementation("ref:any").implementation == "ref:any");
  CHECK(DescribeImplementation("ref:any").slow_path.find("reference kernel") != std::string::npos);
  CHECK(DescribeImplementation("ref_fused:any").slow_path.find("reference kernel") != std::string::npos);

  // conv 3x3 16 -> 32 on 8x8, then ReLU (which CpuOneDnn fuses into the convolution).
  Network net;
  const auto x = net.AddInput("x", F32({1, 16, 8, 8}));
  Convolution2dDescriptor conv;
  conv.pads = {1, 1, 1, 1};
  const auto c = net.Add(conv, {x, Constant(net, "w", {32, 16, 3, 3}, 1, 0.2f)}, "conv");
  ActivationDescriptor relu;
  relu.function = ActivationFunction::kRelu;
  net.AddOutput("y", net.Add(relu, {c}, "relu"));
  const double conv_flops = 2.0 * (32 * 8 * 8) * (16 * 3 * 3);

  auto runtime = MakeRuntime();
  double flops = 0;
  for (const auto& [step, detail] : ProfiledSteps(*runtime, net, {kOneDnn})) {
    CAPTURE(step.layer);
    if (step.backend != kOneDnn) continue;
    CHECK_FALSE(detail.implementation.empty());  // whatever oneDNN picked on this CPU
    flops += detail.flops;
  }
  CHECK(flops == conv_flops);  // fused or not, the convolution's FLOPs are counted once
  // On CpuRef the same convolution, unfused, counts the same.
  double reference_flops = 0;
  for (const auto& [step, detail] : ProfiledSteps(*runtime, net, {kRef})) reference_flops += detail.flops;
  CHECK(reference_flops == conv_flops);
}

TEST_CASE("ops: broadcasts and concats oneDNN has only a reference kernel for run on fast paths and match") {
  // Swin's shifted-window mask ([1, 4, 3, 5, 5] + [1, 4, 1, 5, 5]: a broadcast oneDNN's jit
  // binary does not take) and two broadcast dimensions: our loop. Concats oneDNN would run
  // on its reference kernel in blocked layouts read dense inputs (InputLayouts).
  auto runtime = MakeRuntime();
  struct Case {
    BinaryOperation op;
    TensorShape a, b;
    bool b_constant;
  };
  const Case cases[] = {
      {BinaryOperation::kAdd, {1, 4, 3, 5, 5}, {1, 4, 1, 5, 5}, false},
      {BinaryOperation::kSub, {2, 3, 4, 5}, {2, 1, 4, 1}, true},
      {BinaryOperation::kMul, {2, 1, 4, 1}, {2, 3, 4, 5}, false},  // commutative: swapped
  };
  for (const Case& c : cases) {
    CAPTURE(static_cast<int>(c.op));
    ElementwiseBinaryDescriptor d;
    d.operation = c.op;
    const Network net = OneLayer(d, c.a, {{c.b, c.b_constant}});
    CheckOp(*runtime, net, 0.5f, 2.0f);
    for (const auto& [step, detail] : ProfiledSteps(*runtime, net, {kOneDnn})) {
      if (step.layer != "op") continue;
      CHECK(detail.implementation == "backplane:broadcast loop");
      CHECK(detail.slow_path.empty());
    }
  }
  // ShuffleNet's 58 + 58 channels: 16-channel blocks that do not line up.
  ConcatDescriptor concat;
  concat.axis = 1;
  for (const auto& [first, second] : {std::pair<TensorShape, TensorShape>{{1, 53, 6, 8}, {1, 3, 6, 8}},
                                      std::pair<TensorShape, TensorShape>{{1, 24, 6, 8}, {1, 24, 6, 8}}}) {
    const Network net = OneLayer(concat, first, {{second, false}});
    CheckOp(*runtime, net);
    for (const auto& [step, detail] : ProfiledSteps(*runtime, net, {kOneDnn})) {
      CAPTURE(step.layer);
      CHECK(detail.slow_path.empty());
    }
  }
}

}  // namespace
}  // namespace backplane::onednn::testing
