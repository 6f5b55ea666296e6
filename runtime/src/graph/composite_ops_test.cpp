// Composite-op recognition (composite_ops.hpp) through Optimize, against a backend written for
// the test that takes every layer but the types it is told to refuse: which patterns become one
// layer, in which operand orders, and when a pattern must stay as it is.
#include "graph/optimizer.hpp"

#include "impl_access.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/network.hpp>

#include <doctest/doctest.h>

#include <array>
#include <cmath>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace backplane::graph {
namespace {

class SupportsAllBut final : public backend::ILayerSupport {
 public:
  explicit SupportsAllBut(std::set<LayerType> refused) : refused_(std::move(refused)) {}
  bool IsLayerSupported(const backend::ILayerView& layer, std::string* reason) const override {
    if (refused_.count(layer.GetType()) == 0) return true;
    if (reason) *reason = "refused by the test";
    return false;
  }

 private:
  std::set<LayerType> refused_;
};

class PickyBackend final : public backend::IBackend {
 public:
  explicit PickyBackend(std::set<LayerType> refused) : refused_(std::move(refused)) {}
  BackendId GetId() const override { return BackendId("Picky"); }
  backend::BackendCapabilities GetCapabilities() const override { return {}; }
  std::shared_ptr<backend::ILayerSupport> GetLayerSupport() const override {
    return std::make_shared<SupportsAllBut>(refused_);
  }
  std::unique_ptr<backend::IWorkloadFactory> CreateWorkloadFactory(const std::shared_ptr<backend::IMemoryManager>&,
                                                                   backend::IBackendContext*) const override {
    return nullptr;
  }

 private:
  std::set<LayerType> refused_;
};

class NullSink final : public ILogSink {
 public:
  bool IsEnabled(LogLevel, LogCategory) const override { return false; }
  void Write(LogLevel, LogCategory, std::string_view) override {}
};

const TensorInfo kTokens{TensorShape{2, 5, 8}, DataType::kFloat32};

OutputSlot Scalar(Network& net, const std::string& name, float value) {
  return net.AddConstant(name, TensorShape{}, std::vector<float>{value});
}

OutputSlot Binary(Network& net, BinaryOperation operation, OutputSlot a, OutputSlot b, const std::string& name) {
  ElementwiseBinaryDescriptor descriptor;
  descriptor.operation = operation;
  return net.Add(descriptor, {a, b}, name);
}

OutputSlot Unary(Network& net, UnaryOperation operation, OutputSlot x, const std::string& name) {
  ElementwiseUnaryDescriptor descriptor;
  descriptor.operation = operation;
  return net.Add(descriptor, {x}, name);
}

OutputSlot Mean(Network& net, OutputSlot x, std::vector<std::int32_t> axes, const std::string& name) {
  ReduceDescriptor descriptor;
  descriptor.axes = std::move(axes);
  return net.Add(descriptor, {x}, name);
}

struct LayerNormParts {
  bool square_by_mul = false;     // Mul(d, d) instead of Pow(d, 2)
  bool scale = true;              // Mul by a constant scale
  bool bias = true;               // Add of a constant bias
  bool scale_first = false;       // Mul(scale, n) instead of Mul(n, scale)
  std::vector<std::int32_t> axes{-1};
};

// PyTorch's opset-13 layer norm over `parts.axes` of x, named ln_*; returns its output.
OutputSlot DecomposedLayerNorm(Network& net, OutputSlot x, const LayerNormParts& parts = {}) {
  auto mean = Mean(net, x, parts.axes, "ln_mean");
  auto d = Binary(net, BinaryOperation::kSub, x, mean, "ln_sub");
  auto square = parts.square_by_mul ? Binary(net, BinaryOperation::kMul, d, d, "ln_square")
                                    : Binary(net, BinaryOperation::kPow, d, Scalar(net, "two", 2.0f), "ln_square");
  auto variance = Mean(net, square, parts.axes, "ln_var");
  auto shifted = Binary(net, BinaryOperation::kAdd, variance, Scalar(net, "eps", 1e-5f), "ln_eps");
  auto deviation = Unary(net, UnaryOperation::kSqrt, shifted, "ln_sqrt");
  auto y = Binary(net, BinaryOperation::kDiv, d, deviation, "ln_div");
  std::int64_t normalized = 1;
  for (std::int32_t axis : parts.axes) normalized *= kTokens.shape[static_cast<std::size_t>(axis < 0 ? axis + 3 : axis)];
  const TensorShape shape = parts.axes.size() == 1 ? TensorShape{normalized} : TensorShape{5, 8};
  if (parts.scale) {
    auto scale = net.AddConstant("ln_gamma", shape, std::vector<float>(static_cast<std::size_t>(normalized), 1.5f));
    y = parts.scale_first ? Binary(net, BinaryOperation::kMul, scale, y, "ln_scale")
                          : Binary(net, BinaryOperation::kMul, y, scale, "ln_scale");
  }
  if (parts.bias) {
    auto bias = net.AddConstant("ln_beta", shape, std::vector<float>(static_cast<std::size_t>(normalized), 0.25f));
    y = Binary(net, BinaryOperation::kAdd, bias, y, "ln_bias");
  }
  return y;
}

struct Result {
  std::unique_ptr<OptimizedNetwork::Impl> optimized;
  std::vector<LayerPlacement> placement;
  std::vector<std::string> log;

  // The descriptor of the live layer `name`, which must be a `Descriptor` layer.
  template <typename Descriptor>
  const Descriptor& DescriptorOf(const std::string& name) const {
    const Layer* layer = optimized->graph.Find(name);
    REQUIRE(layer != nullptr);
    REQUIRE(layer->type == Descriptor::kType);
    return static_cast<const Descriptor&>(*layer->descriptor);
  }
};

Result Optimized(const Network& net, std::set<LayerType> refused = {}, OptimizeOptions options = {}) {
  std::vector<PlacementBackend> backends;
  backends.push_back(DescribeBackend(BackendId("Picky"), std::make_unique<PickyBackend>(std::move(refused)), true, ""));
  NullSink sink;
  Result result{Optimize(backplane::detail::ImplAccess::Of(net), options, backends, sink), {}, {}};
  result.placement = result.optimized->placement;
  result.log = result.optimized->pass_log;
  return result;
}

// The types of the placed layers (no Input, Output or Constant), in order.
std::vector<LayerType> ComputeTypes(const Result& result) {
  std::vector<LayerType> types;
  for (const auto& layer : result.placement) {
    if (!layer.backend.IsEmpty()) types.push_back(layer.type);
  }
  return types;
}

const LayerPlacement* Find(const Result& result, const std::string& name) {
  for (const auto& layer : result.placement) {
    if (layer.layer == name) return &layer;
  }
  return nullptr;
}

TEST_CASE("composite ops: a decomposed layer norm becomes one LayerNormalization named as its last layer") {
  struct Case {
    const char* name;
    LayerNormParts parts;
    const char* last;
  };
  LayerNormParts by_mul;
  by_mul.square_by_mul = true;
  LayerNormParts no_affine;
  no_affine.scale = false;
  no_affine.bias = false;
  LayerNormParts scale_first;
  scale_first.scale_first = true;
  LayerNormParts two_axes;
  two_axes.axes = {1, -1};
  LayerNormParts bias_only;
  bias_only.scale = false;
  for (const Case& c : {Case{"Pow, scale, bias", {}, "ln_bias"}, Case{"Mul(d, d)", by_mul, "ln_bias"},
                        Case{"no scale, no bias", no_affine, "ln_div"}, Case{"scale first", scale_first, "ln_bias"},
                        Case{"two trailing axes", two_axes, "ln_bias"}, Case{"bias only", bias_only, "ln_bias"}}) {
    CAPTURE(c.name);
    Network net;
    auto x = net.AddInput("x", kTokens);
    net.AddOutput("y", Unary(net, UnaryOperation::kAbs, DecomposedLayerNorm(net, x, c.parts), "after"));
    const Result result = Optimized(net);
    CHECK(ComputeTypes(result) == std::vector<LayerType>{LayerType::kLayerNormalization, LayerType::kElementwiseUnary});
    const LayerPlacement* norm = Find(result, c.last);
    REQUIRE(norm != nullptr);
    CHECK(norm->type == LayerType::kLayerNormalization);
    const auto& descriptor = result.DescriptorOf<LayerNormalizationDescriptor>(c.last);
    CHECK(descriptor.axis == (c.parts.axes.size() == 2 ? 1 : 2));
    CHECK(descriptor.epsilon == doctest::Approx(1e-5f));
    REQUIRE(!result.log.empty());
    CHECK(result.log.front().find(std::string("recognized '") + c.last + "' as LayerNormalization in 'ln_mean' (Reduce)") == 0);
  }
}

TEST_CASE("composite ops: a layer norm stays decomposed when its parts are read elsewhere, pinned, refused or not over the last axes") {
  SUBCASE("the centered tensor is also an output") {
    Network net;
    auto x = net.AddInput("x", kTokens);
    net.AddOutput("y", DecomposedLayerNorm(net, x));
    net.AddOutput("centered", OutputSlot{net.FindLayer("ln_sub"), 0});
    CHECK(ComputeTypes(Optimized(net)).size() == 9);
  }
  SUBCASE("a part is pinned") {
    Network net;
    auto x = net.AddInput("x", kTokens);
    net.AddOutput("y", DecomposedLayerNorm(net, x));
    OptimizeOptions options;
    options.pins["ln_sqrt"] = BackendId("Picky");
    CHECK(ComputeTypes(Optimized(net, {}, options)).size() == 9);
  }
  SUBCASE("no backend takes LayerNormalization") {
    Network net;
    auto x = net.AddInput("x", kTokens);
    net.AddOutput("y", DecomposedLayerNorm(net, x));
    const Result result = Optimized(net, {LayerType::kLayerNormalization});
    CHECK(ComputeTypes(result).size() == 9);
    CHECK(result.log.empty());
  }
  SUBCASE("the mean is over a leading axis") {
    LayerNormParts parts;
    parts.axes = {1};
    parts.scale = false;
    parts.bias = false;
    Network net;
    auto x = net.AddInput("x", kTokens);
    net.AddOutput("y", DecomposedLayerNorm(net, x, parts));
    CHECK(ComputeTypes(Optimized(net)).size() == 7);
  }
  SUBCASE("a scale that is not of the normalized shape stays a Mul") {
    Network net;
    auto x = net.AddInput("x", kTokens);
    LayerNormParts parts;
    parts.scale = false;
    parts.bias = false;
    auto y = DecomposedLayerNorm(net, x, parts);
    // [5, 1]: broadcast along the tokens, not one value per normalized element.
    auto scale = net.AddConstant("odd_scale", TensorShape{5, 1}, std::vector<float>(5, 2.0f));
    net.AddOutput("y", Binary(net, BinaryOperation::kMul, y, scale, "odd"));
    const Result result = Optimized(net);
    CHECK(ComputeTypes(result) == std::vector<LayerType>{LayerType::kLayerNormalization, LayerType::kElementwiseBinary});
  }
}

TEST_CASE("composite ops: GELU's erf pattern in each multiplication order becomes one Activation") {
  for (int order = 0; order < 4; ++order) {
    CAPTURE(order);
    Network net;
    auto x = net.AddInput("x", kTokens);
    auto scaled = order == 3 ? Binary(net, BinaryOperation::kMul, Scalar(net, "inv_sqrt2", 0.70710678f), x, "g_scale")
                             : Binary(net, BinaryOperation::kDiv, x, Scalar(net, "sqrt2", 1.4142135f), "g_scale");
    auto erf = Unary(net, UnaryOperation::kErf, scaled, "g_erf");
    auto plus = Binary(net, BinaryOperation::kAdd, Scalar(net, "one", 1.0f), erf, "g_add");
    OutputSlot y;
    if (order == 0 || order == 3) {  // (x * (1 + erf)) * 0.5
      y = Binary(net, BinaryOperation::kMul, Binary(net, BinaryOperation::kMul, x, plus, "g_mul"), Scalar(net, "half", 0.5f), "g_out");
    } else if (order == 1) {  // x * ((1 + erf) * 0.5)
      y = Binary(net, BinaryOperation::kMul, x, Binary(net, BinaryOperation::kMul, plus, Scalar(net, "half", 0.5f), "g_mul"), "g_out");
    } else {  // (x * 0.5) * (1 + erf)
      y = Binary(net, BinaryOperation::kMul, Binary(net, BinaryOperation::kMul, x, Scalar(net, "half", 0.5f), "g_half"), plus, "g_out");
    }
    net.AddOutput("y", y);
    const Result result = Optimized(net);
    CHECK(ComputeTypes(result) == std::vector<LayerType>{LayerType::kActivation});
    CHECK(result.DescriptorOf<ActivationDescriptor>("g_out").function == ActivationFunction::kGelu);
  }
  SUBCASE("a constant that is not 1/2 leaves it as it is") {
    Network net;
    auto x = net.AddInput("x", kTokens);
    auto erf = Unary(net, UnaryOperation::kErf, Binary(net, BinaryOperation::kDiv, x, Scalar(net, "sqrt2", 1.4142135f), "d"), "e");
    auto plus = Binary(net, BinaryOperation::kAdd, erf, Scalar(net, "one", 1.0f), "a");
    net.AddOutput("y", Binary(net, BinaryOperation::kMul, Binary(net, BinaryOperation::kMul, x, plus, "m"), Scalar(net, "q", 0.25f), "out"));
    CHECK(ComputeTypes(Optimized(net)).size() == 5);
  }
}

TEST_CASE("composite ops: GELU's tanh approximation (Pow or x * x * x, operands either way) becomes one Activation") {
  for (int form = 0; form < 4; ++form) {
    CAPTURE(form);
    Network net;
    auto x = net.AddInput("x", kTokens);
    // form 0: PyTorch's export (kappa * x^3, beta * inner, 0.5 * x first); 1: GPT-2's
    // (x^3 * kappa, inner * beta, (x * 0.5) * .); 2: x * (x * x); 3: as 0 with the end (x * .) * 0.5.
    OutputSlot cube;
    if (form == 2) {
      cube = Binary(net, BinaryOperation::kMul, x, Binary(net, BinaryOperation::kMul, x, x, "t_square"), "t_cube");
    } else {
      cube = Binary(net, BinaryOperation::kPow, x, Scalar(net, "three", 3.0f), "t_cube");
    }
    auto kappa = Scalar(net, "kappa", 0.044715f);
    auto weighted = form == 1 ? Binary(net, BinaryOperation::kMul, cube, kappa, "t_weighted")
                              : Binary(net, BinaryOperation::kMul, kappa, cube, "t_weighted");
    auto inner = form == 1 ? Binary(net, BinaryOperation::kAdd, weighted, x, "t_inner")
                           : Binary(net, BinaryOperation::kAdd, x, weighted, "t_inner");
    auto beta = Scalar(net, "beta", 0.7978845608f);
    auto scaled = form == 1 ? Binary(net, BinaryOperation::kMul, inner, beta, "t_scaled")
                            : Binary(net, BinaryOperation::kMul, beta, inner, "t_scaled");
    ActivationDescriptor tanh;
    tanh.function = ActivationFunction::kTanh;
    auto plus = Binary(net, BinaryOperation::kAdd, Scalar(net, "one", 1.0f), net.Add(tanh, {scaled}, "t_tanh"), "t_add");
    OutputSlot y;
    if (form == 3) {
      y = Binary(net, BinaryOperation::kMul, Binary(net, BinaryOperation::kMul, x, plus, "t_mul"), Scalar(net, "half", 0.5f),
                 "t_out");
    } else {
      auto half_x = form == 1 ? Binary(net, BinaryOperation::kMul, x, Scalar(net, "half", 0.5f), "t_half")
                              : Binary(net, BinaryOperation::kMul, Scalar(net, "half", 0.5f), x, "t_half");
      y = Binary(net, BinaryOperation::kMul, half_x, plus, "t_out");
    }
    net.AddOutput("y", y);
    const Result result = Optimized(net);
    CHECK(ComputeTypes(result) == std::vector<LayerType>{LayerType::kActivation});
    CHECK(result.DescriptorOf<ActivationDescriptor>("t_out").function == ActivationFunction::kGeluTanh);
  }
  SUBCASE("another cubic coefficient, or x^2, leaves it as it is") {
    for (const auto& [exponent, coefficient] : std::vector<std::pair<float, float>>{{3.0f, 0.05f}, {2.0f, 0.044715f}}) {
      Network net;
      auto x = net.AddInput("x", kTokens);
      auto cube = Binary(net, BinaryOperation::kPow, x, Scalar(net, "e", exponent), "c");
      auto inner = Binary(net, BinaryOperation::kAdd, x,
                          Binary(net, BinaryOperation::kMul, Scalar(net, "k", coefficient), cube, "w"), "i");
      ActivationDescriptor tanh;
      tanh.function = ActivationFunction::kTanh;
      auto t = net.Add(tanh, {Binary(net, BinaryOperation::kMul, Scalar(net, "b", 0.7978845608f), inner, "s")}, "t");
      auto plus = Binary(net, BinaryOperation::kAdd, Scalar(net, "one", 1.0f), t, "a");
      net.AddOutput("y", Binary(net, BinaryOperation::kMul,
                                Binary(net, BinaryOperation::kMul, Scalar(net, "h", 0.5f), x, "hx"), plus, "out"));
      CHECK(ComputeTypes(Optimized(net)).size() == 8);
    }
  }
}

TEST_CASE("composite ops: x * Sigmoid(x) is SiLU, x * HardSigmoid(x, 1/6, 1/2) is HardSwish, other gates stay") {
  auto gated = [](ActivationFunction gate, float alpha, float beta, bool same_input) -> Result {
    Network net;
    auto x = net.AddInput("x", kTokens);
    auto other = net.AddInput("other", kTokens);
    ActivationDescriptor descriptor;
    descriptor.function = gate;
    descriptor.alpha = alpha;
    descriptor.beta = beta;
    auto g = net.Add(descriptor, {same_input ? x : other}, "gate");
    net.AddOutput("y", Binary(net, BinaryOperation::kMul, g, x, "gated"));
    return Optimized(net);
  };
  CHECK(gated(ActivationFunction::kSigmoid, 0, 0, true).DescriptorOf<ActivationDescriptor>("gated").function ==
        ActivationFunction::kSilu);
  CHECK(gated(ActivationFunction::kHardSigmoid, 1.0f / 6, 0.5f, true).DescriptorOf<ActivationDescriptor>("gated").function ==
        ActivationFunction::kHardSwish);
  CHECK(ComputeTypes(gated(ActivationFunction::kHardSigmoid, 0.2f, 0.5f, true)).size() == 2);  // ONNX's default alpha
  CHECK(ComputeTypes(gated(ActivationFunction::kSigmoid, 0, 0, false)).size() == 2);  // gates another tensor
  CHECK(ComputeTypes(gated(ActivationFunction::kTanh, 0, 0, true)).size() == 2);
}

TEST_CASE("composite ops: a zero Pad along H and W before a convolution or a counting average pooling becomes their pads") {
  // pads: begin N C H W, end N C H W.
  auto padded = [](LayerType consumer, std::vector<std::int64_t> pads, float value, bool count_include_pad) -> Result {
    Network net;
    auto x = net.AddInput("x", TensorInfo{TensorShape{1, 4, 9, 9}, DataType::kFloat32});
    PadDescriptor pad;
    pad.pads = std::move(pads);
    pad.value = value;
    auto p = net.Add(pad, {x}, "pad");
    if (consumer == LayerType::kConvolution2d) {
      Convolution2dDescriptor conv;
      conv.pads = {1, 1, 1, 1};
      auto w = net.AddConstant("w", TensorShape{8, 4, 3, 3}, std::vector<float>(8 * 4 * 9, 0.5f));
      net.AddOutput("y", net.Add(conv, {p, w}, "window"));
    } else {
      Pooling2dDescriptor pool;
      pool.type = consumer == LayerType::kPooling2d ? PoolingType::kAverage : PoolingType::kMax;
      pool.kernel = {3, 3};
      pool.count_include_pad = count_include_pad;
      net.AddOutput("y", net.Add(pool, {p}, "window"));
    }
    return Optimized(net);
  };
  const Result conv = padded(LayerType::kConvolution2d, {0, 0, 2, 0, 0, 0, 1, 3}, 0.0f, false);
  CHECK(ComputeTypes(conv) == std::vector<LayerType>{LayerType::kConvolution2d});
  CHECK(conv.DescriptorOf<Convolution2dDescriptor>("window").pads == std::array<std::uint32_t, 4>{3, 1, 2, 4});
  const Result pool = padded(LayerType::kPooling2d, {0, 0, 1, 1, 0, 0, 1, 1}, 0.0f, false);
  CHECK(ComputeTypes(pool) == std::vector<LayerType>{LayerType::kPooling2d});
  const auto& pooling = pool.DescriptorOf<Pooling2dDescriptor>("window");
  CHECK(pooling.pads == std::array<std::uint32_t, 4>{1, 1, 1, 1});
  CHECK(pooling.count_include_pad);
  // Max pooling ignores padding (a zero is not neutral for it), a non-zero value and padding of
  // the channels are not a window's pads.
  CHECK(ComputeTypes(padded(LayerType::kActivation, {0, 0, 1, 1, 0, 0, 1, 1}, 0.0f, false)).size() == 2);
  CHECK(ComputeTypes(padded(LayerType::kConvolution2d, {0, 0, 1, 1, 0, 0, 1, 1}, 1.0f, false)).size() == 2);
  CHECK(ComputeTypes(padded(LayerType::kPooling2d, {0, 1, 1, 1, 0, 0, 1, 1}, 0.0f, false)).size() == 2);
}

}  // namespace
}  // namespace backplane::graph
