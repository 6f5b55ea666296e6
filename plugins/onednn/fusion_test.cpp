// Fusion and blocked layouts: conv chains (strided, padded, dilated, grouped, depthwise) with
// fused activations and residual adds, where blocked tensors flow between CpuOneDnn layers;
// a network with a layer CpuOneDnn refuses in the middle (data leaves and re-enters the
// blocked layout); the GELU pattern and bias after matrix products; attention.
#include "onednn_test_support.hpp"

namespace backplane::onednn::testing {
namespace {

TensorInfo F32(TensorShape shape) { return {std::move(shape), DataType::kFloat32}; }

OutputSlot Conv(Network& net, OutputSlot x, std::int64_t in, std::int64_t out, std::uint32_t kernel,
                std::uint32_t stride, std::uint32_t dilation, std::uint32_t groups, const std::string& name,
                unsigned seed) {
  Convolution2dDescriptor d;
  d.strides = {stride, stride};
  d.dilations = {dilation, dilation};
  const std::uint32_t pad = (kernel - 1) / 2 * dilation;
  d.pads = {pad, pad, pad, pad};
  d.groups = groups;
  const float scale = 1.0f / std::sqrt(static_cast<float>(in / groups * kernel * kernel));
  auto w = Constant(net, name + "_w", {out, in / groups, kernel, kernel}, seed, scale);
  auto b = Constant(net, name + "_b", {out}, seed + 1, 0.1f);
  return net.Add(d, {x, w, b}, name);
}

OutputSlot Act(Network& net, OutputSlot x, ActivationFunction function, const std::string& name,
               float alpha = 0.0f, float beta = 0.0f) {
  ActivationDescriptor d;
  d.function = function;
  d.alpha = alpha;
  d.beta = beta;
  return net.Add(d, {x}, name);
}

OutputSlot Binary(Network& net, BinaryOperation op, OutputSlot a, OutputSlot b, const std::string& name) {
  ElementwiseBinaryDescriptor d;
  d.operation = op;
  return net.Add(d, {a, b}, name);
}

// A small residual CNN: stem (7x7 stride 2), a basic block with identity shortcut, a
// downsampling block with a 1x1 strided projection, an inverted-residual block (1x1 expand,
// depthwise 3x3, 1x1 project, add), a grouped dilated conv, max pooling and global pooling.
Network ResidualNet(TensorShape input = {1, 3, 32, 32}) {
  Network net;
  auto x = net.AddInput("x", F32(input));
  auto stem = Act(net, Conv(net, x, 3, 16, 7, 2, 1, 1, "stem", 10), ActivationFunction::kRelu, "stem_relu");
  Pooling2dDescriptor pool;
  pool.kernel = {3, 3};
  pool.strides = {2, 2};
  pool.pads = {1, 1, 1, 1};
  auto p = net.Add(pool, {stem}, "pool");
  // Basic block.
  auto a = Act(net, Conv(net, p, 16, 16, 3, 1, 1, 1, "b1_conv1", 20), ActivationFunction::kRelu, "b1_relu1");
  auto b = Conv(net, a, 16, 16, 3, 1, 1, 1, "b1_conv2", 30);
  auto block1 = Act(net, Binary(net, BinaryOperation::kAdd, b, p, "b1_add"), ActivationFunction::kRelu, "b1_relu2");
  // Downsampling block with projection.
  auto c = Act(net, Conv(net, block1, 16, 32, 3, 2, 1, 1, "b2_conv1", 40), ActivationFunction::kRelu, "b2_relu1");
  auto d = Conv(net, c, 32, 32, 3, 1, 1, 1, "b2_conv2", 50);
  auto proj = Conv(net, block1, 16, 32, 1, 2, 1, 1, "b2_proj", 60);
  auto block2 = Act(net, Binary(net, BinaryOperation::kAdd, d, proj, "b2_add"), ActivationFunction::kRelu, "b2_relu2");
  // Inverted residual (relu6 = clip 0..6), no activation after the add.
  auto e = Act(net, Conv(net, block2, 32, 64, 1, 1, 1, 1, "ir_expand", 70), ActivationFunction::kClip, "ir_relu6a", 0, 6);
  auto f = Act(net, Conv(net, e, 64, 64, 3, 1, 1, 64, "ir_dw", 80), ActivationFunction::kClip, "ir_relu6b", 0, 6);
  auto g = Conv(net, f, 64, 32, 1, 1, 1, 1, "ir_project", 90);
  auto block3 = Binary(net, BinaryOperation::kAdd, g, block2, "ir_add");
  // Grouped, dilated.
  auto h = Act(net, Conv(net, block3, 32, 48, 3, 1, 2, 4, "grouped", 100), ActivationFunction::kSilu, "grouped_silu");
  Pooling2dDescriptor global;
  global.global = true;
  global.type = PoolingType::kAverage;
  net.AddOutput("features", h);
  net.AddOutput("pooled", net.Add(global, {h}, "gap"));
  return net;
}

TEST_CASE("fusion: a residual CNN fuses conv + bias + activation + residual add and matches CpuRef") {
  auto runtime = MakeRuntime();
  const Network net = ResidualNet();
  const Outcome outcome = CheckAgainstReference(*runtime, net, {Random(3 * 32 * 32, 7)});
  // Every conv is in a fused layer with what follows it.
  CHECK(FusedCount(outcome) >= 8);
  std::string reason;
  for (const char* layer : {"stem", "b1_conv2", "b1_add", "b1_relu2", "ir_dw", "ir_add"}) {
    CAPTURE(layer);
    CHECK(BackendOf(outcome, layer).empty());  // replaced by a fused layer
  }
  for (const auto& p : outcome.placement) {
    if (p.type == backend::LayerType::kPreCompiled) {
      CAPTURE(p.layer);
      CHECK(p.backend.Get() == "CpuOneDnn");
      CHECK(p.reason.find("fused from") != std::string::npos);
    }
  }
  // Tensors between CpuOneDnn layers live in its blocked-layout handles; the network's
  // outputs in host memory.
  std::size_t blocked_edges = 0;
  for (const auto& edge : outcome.edges) {
    if (edge.producer == "x") CHECK(edge.factory == "Backplane/Host/Memory");
    blocked_edges += edge.factory == "Backplane/CpuOneDnn/Blocked" ? 1 : 0;
    CHECK(edge.strategy == EdgeStrategy::kDirect);
  }
  CHECK(blocked_edges >= 10);
  CHECK(EdgeFactory(outcome, "pool", "b1_conv1+b1_relu1") == "Backplane/CpuOneDnn/Blocked");
  bool residual_fused = false;
  for (const auto& line : outcome.pass_log) residual_fused |= line.find("b1_conv2, b1_add, b1_relu2") != std::string::npos;
  CHECK(residual_fused);
  // Batch 2, other spatial size: the same layers with other shapes.
  CheckAgainstReference(*runtime, ResidualNet({2, 3, 29, 35}), {Random(2 * 3 * 29 * 35, 8)});
}

TEST_CASE("fusion: a 3-D residual block (Conv3d + BatchNorm3d + ReLU, residual add) folds, fuses and matches CpuRef") {
  // r3d_18's basic block: conv, batch norm, ReLU, conv, batch norm, add the block's input, ReLU.
  auto runtime = MakeRuntime();
  Network net;
  const OutputSlot x = net.AddInput("x", {{1, 16, 4, 8, 8}, DataType::kFloat32});
  unsigned seed = 30;
  const auto conv_bn = [&](OutputSlot in, const std::string& name) {
    ConvolutionNdDescriptor conv;
    conv.strides = {1, 1, 1};
    conv.dilations = {1, 1, 1};
    conv.pads = {1, 1, 1, 1, 1, 1};
    const auto w = Constant(net, name + "_w", {16, 16, 3, 3, 3}, seed++, 0.1f);
    const OutputSlot y = net.Add(conv, {in, w}, name);
    BatchNormalizationDescriptor bn;
    std::vector<OutputSlot> inputs{y};
    for (const char* part : {"_scale", "_shift", "_mean"}) inputs.push_back(Constant(net, name + part, {16}, seed++, 0.5f));
    inputs.push_back(net.AddConstant(name + "_var", TensorShape{16}, Random(16, seed++, 0.5f, 1.5f)));
    return net.Add(bn, inputs, name + "_bn");
  };
  const OutputSlot h = Act(net, conv_bn(x, "conv1"), ActivationFunction::kRelu, "relu1");
  const OutputSlot sum = Binary(net, BinaryOperation::kAdd, conv_bn(h, "conv2"), x, "add");
  net.AddOutput("y", Act(net, sum, ActivationFunction::kRelu, "relu2"));
  const Outcome outcome = CheckAgainstReference(*runtime, net, {Random(16 * 4 * 8 * 8, 9)});
  std::size_t folded = 0;
  for (const auto& line : outcome.pass_log) folded += line.find("folded batch normalization") != std::string::npos;
  CHECK(folded == 2);
  CHECK(FusedCount(outcome) == 2);  // conv1 + relu1, conv2 + add + relu2
  for (const auto& p : outcome.placement) {
    CAPTURE(p.layer);
    CHECK((p.backend.Get().empty() || p.backend.Get() == "CpuOneDnn"));
  }
}

TEST_CASE("fusion: with fast_math the residual CNN (bf16 activations between layers) stays close to CpuRef") {
  // Under fast_math convolutions and pooling read and write bf16 (depthwise, grouped and
  // dilated ones too, residuals as sum post-ops); other layers and the outputs convert.
  auto runtime = MakeRuntime({{"fast_math", "1"}});
  std::string device;
  for (const auto& info : runtime->GetBackends()) {
    if (info.id == kOneDnn) device = info.devices.at(0).name;
  }
  const bool bf16 = device.find("fast_math unavailable") == std::string::npos;
  const Outcome outcome = CheckAgainstReference(*runtime, ResidualNet(), {Random(3 * 32 * 32, 7)}, bf16 ? 3e-2 : 1e-4);
  CHECK(FusedCount(outcome) >= 8);
}

TEST_CASE("fusion: without graph optimization every layer runs alone and still matches") {
  auto runtime = MakeRuntime();
  const Network net = ResidualNet();
  const std::vector<std::vector<float>> inputs{Random(3 * 32 * 32, 9)};
  OptimizeOptions plain;
  plain.backends = {kOneDnn, kRef};
  plain.optimize_graph = false;
  const NetworkId id = runtime->LoadNetwork(runtime->Optimize(net, plain));
  auto context = runtime->CreateExecutionContext(id);
  const auto unfused = RunOnce(*runtime, id, *context, inputs);
  const Outcome fused = RunOn(*runtime, net, {kOneDnn, kRef}, inputs);
  for (std::size_t o = 0; o < unfused.size(); ++o) CHECK(MaxRelativeError(unfused[o], fused.outputs[o]) <= 1e-4);
}

TEST_CASE("fusion: a layer CpuOneDnn refuses in the middle: data leaves and re-enters the blocked layout") {
  auto runtime = MakeRuntime();
  Network net;
  auto x = net.AddInput("x", F32({1, 16, 12, 12}));
  auto a = Act(net, Conv(net, x, 16, 32, 3, 1, 1, 1, "conv1", 1), ActivationFunction::kRelu, "relu1");
  // oneDNN has no binary Pow: CpuRef runs it, between two CpuOneDnn layers.
  auto e = Binary(net, BinaryOperation::kPow, a, net.AddConstant("two", TensorShape{}, std::vector<float>{2.0f}), "pow");
  auto b = Conv(net, e, 32, 32, 3, 2, 1, 1, "conv2", 2);
  auto c = Binary(net, BinaryOperation::kAdd, b, Conv(net, a, 32, 32, 1, 2, 1, 1, "conv3", 3), "add");
  net.AddOutput("y", c);
  net.AddOutput("pow_out", e);
  const Outcome outcome = CheckAgainstReference(*runtime, net, {Random(16 * 12 * 12, 4)});
  std::string reason;
  CHECK(BackendOf(outcome, "pow", &reason) == "CpuRef");
  CHECK(reason.find("CpuOneDnn") != std::string::npos);
  CHECK(FusedCount(outcome) >= 2);
  // Into and out of CpuRef's layer through host memory, directly (no copies).
  CHECK(EdgeFactory(outcome, "conv1+relu1", "pow") == "Backplane/Host/Memory");
  CHECK(EdgeFactory(outcome, "pow", "conv2") == "Backplane/Host/Memory");
  for (const auto& edge : outcome.edges) CHECK(edge.strategy == EdgeStrategy::kDirect);
}

TEST_CASE("fusion: matmul + bias + GELU (ONNX erf pattern), and attention, match CpuRef") {
  auto runtime = MakeRuntime();
  Network net;
  const std::int64_t seq = 16, model = 32, hidden = 64;
  auto x = net.AddInput("x", F32({1, seq, model}));
  MatMulDescriptor mm;
  auto h = net.Add(mm, {x, Constant(net, "w1", {model, hidden}, 1, 0.3f)}, "fc1");
  h = Binary(net, BinaryOperation::kAdd, h, Constant(net, "b1", {hidden}, 2, 0.1f), "fc1_bias");
  auto scaled = Binary(net, BinaryOperation::kDiv, h, net.AddConstant("sqrt2", TensorShape{}, std::vector<float>{1.4142135f}), "gelu_div");
  ElementwiseUnaryDescriptor erf;
  erf.operation = UnaryOperation::kErf;
  auto erfed = net.Add(erf, {scaled}, "gelu_erf");
  auto plus = Binary(net, BinaryOperation::kAdd, erfed, net.AddConstant("one", TensorShape{}, std::vector<float>{1.0f}), "gelu_add");
  auto times = Binary(net, BinaryOperation::kMul, h, plus, "gelu_mul");
  auto gelu = Binary(net, BinaryOperation::kMul, times, net.AddConstant("half", TensorShape{}, std::vector<float>{0.5f}), "gelu_half");
  auto y = net.Add(mm, {gelu, Constant(net, "w2", {hidden, model}, 3, 0.2f)}, "fc2");
  // Attention over y: softmax(y y^T / 4 + mask) y.
  TransposeDescriptor t;
  t.permutation = {0, 2, 1};
  auto scores = net.Add(mm, {y, net.Add(t, {y}, "kt")}, "qk");
  scores = Binary(net, BinaryOperation::kDiv, scores, net.AddConstant("scale", TensorShape{}, std::vector<float>{4.0f}), "qk_scale");
  auto mask = net.AddInput("mask", F32({1, 1, seq}));
  scores = Binary(net, BinaryOperation::kAdd, scores, mask, "qk_mask");
  SoftmaxDescriptor softmax;
  auto probabilities = net.Add(softmax, {scores}, "softmax");
  net.AddOutput("y", net.Add(mm, {probabilities, y}, "pv"));
  const Outcome outcome = CheckAgainstReference(*runtime, net, {Random(seq * model, 5), Random(seq, 6, -2.0f, 0.0f)});
  for (const char* layer : {"fc1_bias", "gelu_div", "gelu_erf", "gelu_half", "qk_scale"}) {
    CAPTURE(layer);
    CHECK(BackendOf(outcome, layer).empty());  // fused
  }
  // A broadcast run-time operand is not fused (it could depend on the chain).
  CHECK(BackendOf(outcome, "qk_mask") == "CpuOneDnn");
  CHECK(BackendOf(outcome, "softmax") == "CpuOneDnn");
  CHECK(FusedCount(outcome) == 2);
}

// matmul + bias, then GELU written out (Div sqrt 2, Erf, Add 1, Mul x, Mul 0.5); matmul + bias,
// then x * Sigmoid(x); matmul + bias, then x * HardSigmoid(x; 1/6, 1/2).
Network WrittenOutActivations() {
  Network net;
  auto x = net.AddInput("x", F32({1, 8, 16}));
  MatMulDescriptor mm;
  auto scalar = [&](const std::string& name, float value) {
    return net.AddConstant(name, TensorShape{}, std::vector<float>{value});
  };
  auto linear = [&](OutputSlot in, const std::string& name, unsigned seed) {
    auto h = net.Add(mm, {in, Constant(net, name + "_w", {16, 16}, seed, 0.3f)}, name);
    return Binary(net, BinaryOperation::kAdd, h, Constant(net, name + "_b", {16}, seed + 1, 0.1f), name + "_bias");
  };
  auto h = linear(x, "fc1", 1);
  ElementwiseUnaryDescriptor erf;
  erf.operation = UnaryOperation::kErf;
  auto scaled = Binary(net, BinaryOperation::kDiv, h, scalar("sqrt2", 1.4142135f), "gelu_div");
  auto erfed = net.Add(erf, {scaled}, "gelu_erf");
  auto plus = Binary(net, BinaryOperation::kAdd, erfed, scalar("one", 1.0f), "gelu_add");
  auto gelu = Binary(net, BinaryOperation::kMul, Binary(net, BinaryOperation::kMul, h, plus, "gelu_mul"),
                     scalar("half", 0.5f), "gelu_half");
  h = linear(gelu, "fc2", 3);
  auto silu = Binary(net, BinaryOperation::kMul, h, Act(net, h, ActivationFunction::kSigmoid, "silu_gate"), "silu_mul");
  h = linear(silu, "fc3", 5);
  auto gate = Act(net, h, ActivationFunction::kHardSigmoid, "hs_gate", 1.0f / 6.0f, 0.5f);
  net.AddOutput("y", Binary(net, BinaryOperation::kMul, h, gate, "hs_mul"));
  return net;
}

TEST_CASE("fusion: written-out GELU, SiLU and HardSwish are recognized once, by the runtime, and stay when pinned") {
  // The runtime's composite-op pass (graph/composite_ops.hpp) owns these patterns: it makes each
  // one Activation, which the chain takes as any activation. With a layer of a pattern pinned
  // (here to CpuOneDnn itself) the pass keeps the written-out form, and CpuOneDnn's fusion does
  // not match it a second time: its layers run one by one after the matmul + bias chain.
  auto runtime = MakeRuntime();
  const Network net = WrittenOutActivations();
  const std::vector<std::vector<float>> inputs{Random(8 * 16, 12, -2.0f, 2.0f)};
  const Outcome ref = RunOn(*runtime, net, {kRef}, inputs);
  for (const bool pinned : {false, true}) {
    CAPTURE(pinned);
    OptimizeOptions options;
    options.backends = {kOneDnn, kRef};
    if (pinned) options.pins = {{"gelu_erf", kOneDnn}, {"silu_gate", kOneDnn}, {"hs_gate", kOneDnn}};
    OptimizedNetwork optimized = runtime->Optimize(net, options);
    Outcome outcome;
    outcome.placement = optimized.GetPlacement();
    outcome.pass_log = optimized.GetPassLog();
    const NetworkId id = runtime->LoadNetwork(std::move(optimized));
    auto context = runtime->CreateExecutionContext(id);
    CHECK(MaxRelativeError(RunOnce(*runtime, id, *context, inputs).at(0), ref.outputs.at(0)) <= 1e-4);
    runtime->UnloadNetwork(id);
    const auto logged = [&](const std::string& text) {
      for (const auto& line : outcome.pass_log) {
        if (line.find(text) != std::string::npos) return true;
      }
      return false;
    };
    CHECK(FusedCount(outcome) == 3);
    if (!pinned) {
      for (const std::string last : {"gelu_half", "silu_mul", "hs_mul"}) {
        CAPTURE(last);
        CHECK(logged("recognized '" + last + "' as Activation"));
      }
      CHECK(logged("fc1, fc1_bias, gelu_half"));
      CHECK(logged("fc2, fc2_bias, silu_mul"));
      CHECK(logged("fc3, fc3_bias, hs_mul"));
    } else {
      CHECK_FALSE(logged("recognized"));
      for (const std::string layer : {"gelu_div", "gelu_erf", "gelu_add", "gelu_mul", "gelu_half", "silu_gate",
                                      "silu_mul", "hs_gate", "hs_mul"}) {
        CAPTURE(layer);
        CHECK(BackendOf(outcome, layer) == "CpuOneDnn");  // a layer of its own, not fused
      }
      CHECK(logged("fc1, fc1_bias"));
      CHECK(BackendOf(outcome, "fc1_bias").empty());
    }
  }
}

TEST_CASE("fusion: an operand computed from the chain on another backend is not fused (no cycle)") {
  // matmul + bias + residual, then x - mean(x) with the mean pinned to CpuRef: the Sub
  // follows the chain in CpuOneDnn's subgraph but reads a tensor computed from it.
  auto runtime = MakeRuntime();
  Network net;
  auto x = net.AddInput("x", F32({2, 8, 16}));
  MatMulDescriptor mm;
  auto h = net.Add(mm, {x, Constant(net, "w", {16, 16}, 1, 0.3f)}, "fc");
  h = Binary(net, BinaryOperation::kAdd, h, Constant(net, "b", {16}, 2, 0.1f), "fc_bias");
  h = Binary(net, BinaryOperation::kAdd, h, x, "residual");
  ReduceDescriptor mean;
  mean.axes = {-1};
  auto m = net.Add(mean, {h}, "mean");
  net.AddOutput("y", Binary(net, BinaryOperation::kSub, h, m, "centered"));
  net.PinLayer("mean", BackendId("CpuRef"));
  const Outcome outcome = CheckAgainstReference(*runtime, net, {Random(2 * 8 * 16, 3)});
  CHECK(BackendOf(outcome, "mean") == "CpuRef");
  CHECK(BackendOf(outcome, "centered") == "CpuOneDnn");
  CHECK(BackendOf(outcome, "residual").empty());  // the residual add is fused
}

TEST_CASE("fusion: GPT-2's tanh GELU, which reads the biased tensor three times, loads and matches") {
  // 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))), x = matmul + bias. The runtime recognizes
  // the pattern as one GeluTanh activation (graph/composite_ops.hpp) unless a layer of it is
  // pinned: "cube" is pinned to CpuRef, so the decomposed form with its three readers of x stays.
  auto runtime = MakeRuntime();
  for (const bool pinned : {true, false}) {
    CAPTURE(pinned);
    Network net;
    auto in = net.AddInput("in", F32({1, 8, 16}));
    MatMulDescriptor mm;
    auto x = net.Add(mm, {in, Constant(net, "w", {16, 32}, 1, 0.3f)}, "fc");
    x = Binary(net, BinaryOperation::kAdd, x, Constant(net, "b", {32}, 2, 0.1f), "fc_bias");
    auto scalar = [&](const std::string& name, float value) {
      return net.AddConstant(name, TensorShape{}, std::vector<float>{value});
    };
    auto half_x = Binary(net, BinaryOperation::kMul, x, scalar("half", 0.5f), "half_x");
    auto cube = Binary(net, BinaryOperation::kPow, x, scalar("three", 3.0f), "cube");
    auto scaled_cube = Binary(net, BinaryOperation::kMul, scalar("c", 0.044715f), cube, "scaled_cube");
    auto inner = Binary(net, BinaryOperation::kAdd, x, scaled_cube, "inner");
    auto scaled = Binary(net, BinaryOperation::kMul, inner, scalar("k", 0.7978846f), "scaled");
    auto t = Act(net, scaled, ActivationFunction::kTanh, "tanh");
    auto one_plus = Binary(net, BinaryOperation::kAdd, t, scalar("one", 1.0f), "one_plus");
    net.AddOutput("y", Binary(net, BinaryOperation::kMul, half_x, one_plus, "gelu"));
    if (pinned) net.PinLayer("cube", kRef);
    const Outcome outcome = CheckAgainstReference(*runtime, net, {Random(8 * 16, 4, -2.0f, 2.0f)});
    CHECK(BackendOf(outcome, "fc_bias").empty());  // fused into the matmul
    if (pinned) {
      CHECK(BackendOf(outcome, "cube") == "CpuRef");
      CHECK(BackendOf(outcome, "half_x") == "CpuOneDnn");  // not fused: x has other readers
    } else {
      // One GeluTanh activation, fused after the matmul and its bias: nothing of it is left alone.
      for (const char* layer : {"cube", "half_x", "tanh", "gelu"}) CHECK(BackendOf(outcome, layer).empty());
    }
  }
}

// One encoder attention block as PyTorch exports it: x [1, S, D] -> Transpose -> packed QKV
// MatMul + bias -> three Slices -> Reshape [S, H, d] -> Transpose [H, S, d] (K to [H, d, S]),
// Q / sqrt(d) -> QK^T -> Softmax -> PV -> Transpose [S, H, d] -> Reshape [S, D] -> Gemm ->
// Reshape [S, 1, D] -> Transpose [1, S, D] -> residual Add.
Network AttentionBlock(std::int64_t seq, std::int64_t heads, std::int64_t head_size) {
  const std::int64_t model = heads * head_size;
  Network net;
  auto x = net.AddInput("x", F32({1, seq, model}));
  TransposeDescriptor swap01;
  swap01.permutation = {1, 0, 2};
  auto xt = net.Add(swap01, {x}, "x_t");
  MatMulDescriptor mm;
  auto qkv = net.Add(mm, {xt, Constant(net, "w_qkv", {model, 3 * model}, 1, 0.2f)}, "qkv");
  qkv = Binary(net, BinaryOperation::kAdd, qkv, Constant(net, "b_qkv", {3 * model}, 2, 0.1f), "qkv_bias");
  auto head_view = [&](const std::string& name, std::int64_t part) {
    SliceDescriptor slice;
    slice.starts = {part * model};
    slice.ends = {(part + 1) * model};
    slice.axes = {2};
    ReshapeDescriptor split;
    split.shape = {seq, heads, head_size};
    auto sliced = net.Add(slice, {qkv}, name + "_slice");
    return net.Add(split, {sliced}, name + "_split");
  };
  auto q = Binary(net, BinaryOperation::kDiv, net.Add(swap01, {head_view("q", 0)}, "q_t"),
                  net.AddConstant("sqrt_d", TensorShape{}, std::vector<float>{std::sqrt(static_cast<float>(head_size))}),
                  "q_scale");
  TransposeDescriptor to_kt;
  to_kt.permutation = {1, 2, 0};
  auto kt = net.Add(to_kt, {head_view("k", 1)}, "k_t");
  auto v = net.Add(swap01, {head_view("v", 2)}, "v_t");
  SoftmaxDescriptor softmax;
  auto p = net.Add(softmax, {net.Add(mm, {q, kt}, "qk")}, "softmax");
  auto context = net.Add(swap01, {net.Add(mm, {p, v}, "pv")}, "context_t");
  ReshapeDescriptor merge;
  merge.shape = {seq, model};
  FullyConnectedDescriptor gemm;
  gemm.transpose_b = true;
  auto out = net.Add(gemm, {net.Add(merge, {context}, "merge"), Constant(net, "w_o", {model, model}, 3, 0.2f),
                            Constant(net, "b_o", {model}, 4, 0.1f)},
                     "out_proj");
  ReshapeDescriptor unit;
  unit.shape = {seq, 1, model};
  auto back = net.Add(swap01, {net.Add(unit, {out}, "unit")}, "back_t");
  net.AddOutput("y", Binary(net, BinaryOperation::kAdd, x, back, "residual"));
  return net;
}

TEST_CASE("fusion: attention's slices, reshapes, transposes and scale fold into its matmuls and match CpuRef") {
  auto runtime = MakeRuntime();
  const std::int64_t seq = 16, heads = 4, head_size = 8;
  const Network net = AttentionBlock(seq, heads, head_size);
  const Outcome outcome = CheckAgainstReference(*runtime, net, {Random(seq * heads * head_size, 7)});
  // Folded: read in place through strided views, or written through one.
  for (const char* layer : {"q_slice", "q_split", "q_t", "q_scale", "k_slice", "k_split", "k_t", "v_slice",
                            "v_split", "v_t", "context_t", "qkv_bias"}) {
    CAPTURE(layer);
    CHECK(BackendOf(outcome, layer).empty());
  }
  // Byte-preserving reshapes stay layers (they share their input's bytes at run time).
  for (const char* layer : {"x_t", "merge", "unit", "back_t", "softmax", "out_proj", "residual"}) {
    CAPTURE(layer);
    CHECK(BackendOf(outcome, layer) == "CpuOneDnn");
  }
  CHECK(FusedCount(outcome) == 3);  // qkv + bias, the QK chain, the PV chain
  // As many heads as positions: PV's transposed result has PV's own dims, and must still be
  // recorded as written through the view, not as a layout of its own.
  const Network square = AttentionBlock(8, 8, 8);
  CHECK(FusedCount(CheckAgainstReference(*runtime, square, {Random(8 * 64, 8)})) == 3);
}

TEST_CASE("fusion: folded operands of one shape keep their order when the second one's layers come first") {
  // The fused layer's inputs follow the order the substitution lists its layers (slot 0's
  // folded layers first), not the order the layers were added in: were they swapped, the
  // shapes would still match and the product would silently be the other one.
  auto runtime = MakeRuntime();
  Network net;
  auto x1 = net.AddInput("x1", F32({3, 5, 5}));
  auto x2 = net.AddInput("x2", F32({3, 5, 5}));
  TransposeDescriptor swap;
  swap.permutation = {0, 2, 1};
  auto t1 = net.Add(swap, {x1}, "t1");  // added first, read as the second operand
  auto t2 = net.Add(swap, {x2}, "t2");
  MatMulDescriptor mm;
  net.AddOutput("y", net.Add(mm, {t2, t1}, "mm"));
  const Outcome outcome = CheckAgainstReference(*runtime, net, {Random(75, 11), Random(75, 12)});
  CHECK(BackendOf(outcome, "t1").empty());
  CHECK(BackendOf(outcome, "t2").empty());
  CHECK(FusedCount(outcome) == 1);
}

TEST_CASE("fusion: data movement that is no strided view is left to run, the rest still folds") {
  // Transpose then a Reshape merging the transposed axes: no single view reads it; the
  // Reshape (of the Transpose's dense output) still folds into the matmul.
  auto runtime = MakeRuntime();
  Network net;
  auto x = net.AddInput("x", F32({2, 3, 4}));
  auto b = net.AddInput("b", F32({2, 3, 5}));
  TransposeDescriptor swap;
  swap.permutation = {0, 2, 1};
  ReshapeDescriptor merge;
  merge.shape = {2, 3, 4};  // [2, 4, 3] read as [2, 3, 4]: mixes rows of the transposed tensor
  auto a = net.Add(merge, {net.Add(swap, {x}, "swap")}, "merge");
  TransposeDescriptor a_t;
  a_t.permutation = {0, 2, 1};
  MatMulDescriptor mm;
  net.AddOutput("y", net.Add(mm, {net.Add(a_t, {a}, "a_t"), b}, "mm"));
  const Outcome outcome = CheckAgainstReference(*runtime, net, {Random(24, 8), Random(30, 9)});
  CHECK(BackendOf(outcome, "swap") == "CpuOneDnn");
  CHECK(BackendOf(outcome, "merge").empty());
  CHECK(BackendOf(outcome, "a_t").empty());
  CHECK(FusedCount(outcome) == 1);
}

}  // namespace
}  // namespace backplane::onednn::testing

namespace backplane::onednn::testing {
namespace {

// The implementation a profiled run names for layer `name` (a fused layer's name holds its
// members joined by '+'), or "" when no step's name contains it.
std::string ImplementationOf(Runtime& runtime, const Network& net, const std::string& name,
                             std::string* slow = nullptr) {
  OptimizeOptions options;
  options.backends = {kOneDnn, kRef};
  const NetworkId id = runtime.LoadNetwork(runtime.Optimize(net, options));
  ExecutionOptions profiled;
  profiled.profiling = true;
  auto context = runtime.CreateExecutionContext(id, profiled);
  const auto signature = runtime.GetNetworkSignature(id);
  std::vector<std::vector<float>> inputs;
  for (const auto& input : signature.inputs) inputs.push_back(Random(input.info.shape.NumElements(), 3));
  RunOnce(runtime, id, *context, inputs);
  std::string found;
  for (std::size_t s = 0; s < context->GetProfiledSteps().size(); ++s) {
    if (context->GetProfiledSteps()[s].layer.find(name) == std::string::npos) continue;
    found = context->GetProfiledStepDetails().at(s).implementation;
    if (slow) *slow = context->GetProfiledStepDetails().at(s).slow_path;
  }
  runtime.UnloadNetwork(id);
  return found;
}

TEST_CASE("fusion: a chain oneDNN would run only on its reference kernel runs as two fast primitives") {
  // Swin's window attention: scores = q @ k^T (k through a folded Transpose) + a position bias
  // shared by every window ([1, heads, n, n] over [windows, heads, n, n]). oneDNN's matmul
  // takes that broadcast only in its reference kernel (0.16 GFLOP/s on Swin-T): the matmul
  // runs alone and a binary primitive adds the bias in place.
  auto runtime = MakeRuntime();
  const std::int64_t windows = 8, heads = 3, n = 49, d = 32;
  Network net;
  auto q = net.AddInput("q", F32({windows, heads, n, d}));
  auto k = net.AddInput("k", F32({windows, heads, n, d}));
  TransposeDescriptor kt;
  kt.permutation = {0, 1, 3, 2};
  MatMulDescriptor mm;
  auto scores = net.Add(mm, {q, net.Add(kt, {k}, "k_t")}, "scores");
  auto biased = Binary(net, BinaryOperation::kAdd, scores, Constant(net, "bias", {1, heads, n, n}, 4), "bias_add");
  SoftmaxDescriptor softmax;
  softmax.axis = -1;
  net.AddOutput("attn", net.Add(softmax, {biased}, "softmax"));
  CheckRunsAgainstReference(*runtime, net, {static_cast<std::size_t>(windows * heads * n * d),
                                            static_cast<std::size_t>(windows * heads * n * d)});
  std::string slow;
  const std::string implementation = ImplementationOf(*runtime, net, "bias_add", &slow);
  CAPTURE(implementation);
  CHECK(implementation.find(" + ") != std::string::npos);
  CHECK(slow.empty());
}

TEST_CASE("fusion: ConvNeXt's layer scale after the NCHW transpose moves above it and fuses into the linear") {
  // r + gamma * Transpose(x W + b): the runtime moves the Mul by gamma ([C, 1, 1]) above the
  // Transpose (as gamma [1, 1, 1, C]), where it joins the matmul's chain after the bias.
  auto runtime = MakeRuntime();
  const std::int64_t c = 32, h = 6, w = 5;
  Network net;
  auto x = net.AddInput("x", F32({1, h, w, c}));
  auto residual = net.AddInput("r", F32({1, c, h, w}));
  MatMulDescriptor mm;
  auto product = net.Add(mm, {x, Constant(net, "w", {c, c}, 1, 0.2f)}, "linear");
  auto biased = Binary(net, BinaryOperation::kAdd, product, Constant(net, "b", {c}, 2), "bias");
  TransposeDescriptor to_nchw;
  to_nchw.permutation = {0, 3, 1, 2};
  auto nchw = net.Add(to_nchw, {biased}, "to_nchw");
  auto scaled = Binary(net, BinaryOperation::kMul, Constant(net, "gamma", {c, 1, 1}, 3), nchw, "layer_scale");
  net.AddOutput("y", Binary(net, BinaryOperation::kAdd, scaled, residual, "residual"));
  CheckRunsAgainstReference(*runtime, net, {static_cast<std::size_t>(h * w * c), static_cast<std::size_t>(c * h * w)});
  const Outcome outcome = CheckAgainstReference(
      *runtime, net, {Random(static_cast<std::size_t>(h * w * c), 4), Random(static_cast<std::size_t>(c * h * w), 5)});
  CHECK(BackendOf(outcome, "linear+bias+layer_scale") == "CpuOneDnn");
}

// A squeeze-and-excitation block on `x` ([1, channels, size, size]): y = relu(conv3x3(x)), a
// per-channel gate s = sigmoid(fc2(relu(fc1(mean(y))))), then a convolution `project` (kernel
// `consumer_kernel`, `groups` groups) reading y * s (or s * y).
Network GatedNet(std::int64_t channels, std::int64_t size, std::uint32_t consumer_kernel, std::uint32_t groups,
                 bool gate_first) {
  Network net;
  auto x = net.AddInput("x", F32({1, channels, size, size}));
  auto y = Act(net, Conv(net, x, channels, channels, 3, 1, 1, 1, "conv", 10), ActivationFunction::kRelu, "relu");
  Pooling2dDescriptor global;
  global.global = true;
  global.type = PoolingType::kAverage;
  auto squeezed = net.Add(global, {y}, "squeeze");
  auto fc1 = Act(net, Conv(net, squeezed, channels, 8, 1, 1, 1, 1, "fc1", 20), ActivationFunction::kRelu, "fc1_relu");
  auto gate = Act(net, Conv(net, fc1, 8, channels, 1, 1, 1, 1, "fc2", 30), ActivationFunction::kSigmoid, "gate");
  auto gated = gate_first ? Binary(net, BinaryOperation::kMul, gate, y, "excite")
                          : Binary(net, BinaryOperation::kMul, y, gate, "excite");
  net.AddOutput("out", Conv(net, gated, channels, channels, consumer_kernel, 1, 1, groups, "project", 40));
  return net;
}

TEST_CASE("fusion: a squeeze-and-excitation gate folds into the convolution reading it (weights scaled per run)") {
  auto runtime = MakeRuntime();
  const std::int64_t size = 12;
  struct Case {
    std::int64_t channels;  // 24: two blocks of 16, the second padded
    std::uint32_t kernel, groups;
    bool gate_first;
  };
  // Grouped consumers: 6 channels a group; 8 (half a 16-channel block) in 4 groups, run as 2
  // groups of 16 (block-diagonal weights), and in 3 groups, which do not pair.
  for (const Case& c : {Case{24, 1, 1, false}, Case{24, 1, 1, true}, Case{24, 3, 4, false}, Case{24, 3, 24, true},
                        Case{32, 3, 4, false}, Case{24, 3, 3, true}}) {
    CAPTURE(c.channels);
    CAPTURE(c.kernel);
    CAPTURE(c.groups);
    CAPTURE(c.gate_first);
    const std::size_t input = static_cast<std::size_t>(c.channels * size * size);
    const Network net = GatedNet(c.channels, size, c.kernel, c.groups, c.gate_first);
    // New inputs each run: the gate changes, and the weights with it.
    CheckRunsAgainstReference(*runtime, net, {input});
    const Outcome outcome = CheckAgainstReference(*runtime, net, {Random(input, 3)});
    CHECK(BackendOf(outcome, "excite").empty());  // folded into "excite+project"
    CHECK(BackendOf(outcome, "excite+project") == "CpuOneDnn");
  }
  // With fast_math the gated convolution scales and reads f32 weights; its neighbours run bf16.
  auto fast = MakeRuntime({{"fast_math", "1"}});
  const Outcome fast_outcome =
      CheckAgainstReference(*fast, GatedNet(24, size, 1, 1, false), {Random(24 * size * size, 5)}, 3e-2);
  CHECK(BackendOf(fast_outcome, "excite+project") == "CpuOneDnn");
  // Weights larger than half the gated tensor: scaling them would cost more than the Mul.
  const Network wide = GatedNet(24, 4, 3, 1, false);
  const Outcome outcome = CheckAgainstReference(*runtime, wide, {Random(24 * 16, 4)});
  CHECK(BackendOf(outcome, "excite") == "CpuOneDnn");
  // A dense 3x3 consumer (Winograd's shape) reads its weights as they are scaled, untransformed.
  CheckRunsAgainstReference(*runtime, GatedNet(24, 24, 3, 1, false), {24 * 24 * 24});
  // With the gate left as a Mul (weights too large to scale), half-block groups pair the same way.
  CheckRunsAgainstReference(*runtime, GatedNet(32, 4, 3, 4, false), {32 * 16});
}

}  // namespace
}  // namespace backplane::onednn::testing
