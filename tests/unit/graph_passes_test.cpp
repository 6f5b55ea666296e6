// Graph passes (issue 3, section 2): constant folding, batch normalization folded into the
// preceding convolution, ops with a constant operand moved above a Transpose, dead-layer
// removal. Each is checked in the pass log and the placement, and results are compared with
// the same network optimized with optimize_graph = false and
// with naive computations.
#include "naive_ops.hpp"
#include "test_networks.hpp"
#include "test_plugins.hpp"
#include "test_runtime.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/runtime.hpp>

#include <doctest/doctest.h>

#include <algorithm>

namespace backplane::unit {
namespace {

OptimizeOptions On(std::vector<BackendId> backends, bool optimize_graph = true) {
  OptimizeOptions options;
  options.backends = std::move(backends);
  options.optimize_graph = optimize_graph;
  return options;
}

bool Logged(const OptimizedNetwork& network, const std::string& line) {
  const auto& log = network.GetPassLog();
  return std::find(log.begin(), log.end(), line) != log.end();
}

// y = x + relu(c1 + c2): "csum" and "crelu" read only constants.
Network MakeConstantSubgraph(const std::vector<float>& c1, const std::vector<float>& c2) {
  Network net;
  const auto x = net.AddInput("x", kAddReluInfo);
  const auto sum = net.Add(ElementwiseBinaryDescriptor{},
                           {net.AddConstant("c1", {2, 3, 4}, c1), net.AddConstant("c2", {2, 3, 4}, c2)}, "csum");
  const auto relu = net.Add(ActivationDescriptor{}, {sum}, "crelu");
  net.AddOutput("y", net.Add(ElementwiseBinaryDescriptor{}, {x, relu}, "add"));
  return net;
}

std::vector<double> ConstantSubgraphForward(const std::vector<float>& x, const std::vector<float>& c1,
                                            const std::vector<float>& c2) {
  std::vector<double> y(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) y[i] = x[i] + std::max(c1[i] + c2[i], 0.0f);
  return y;
}

TEST_CASE("graph passes: a subgraph on constants only is folded away and results are unchanged") {
  const auto c1 = Pseudorandom(24, 1), c2 = Pseudorandom(24, 2), x = Pseudorandom(24, 3);
  const Network net = MakeConstantSubgraph(c1, c2);
  const auto expected = ConstantSubgraphForward(x, c1, c2);

  SUBCASE("folded on CpuRef") {
    TestRuntime runtime({});
    const auto folded = RunNetwork(*runtime, net, On({kCpuRef}), {x}, [](const OptimizedNetwork& network) {
      INFO(network.Describe());
      CHECK(Logged(network, "folded constant layer 'csum' (ElementwiseBinary) on CpuRef"));
      CHECK(Logged(network, "folded constant layer 'crelu' (Activation) on CpuRef"));
      // What is left of them is a constant feeding "add"; their inputs are dead and gone.
      CHECK(PlacementOf(network, "crelu").type == LayerType::kConstant);
      CHECK(PlacementOf(network, "crelu").backend.IsEmpty());
      CHECK_FALSE(HasPlacement(network, "csum"));
      CHECK_FALSE(HasPlacement(network, "c1"));
      CHECK(PlacementOf(network, "add").backend == kCpuRef);
      CHECK(EdgeOf(network, "crelu", "add").strategy == EdgeStrategy::kDirect);
    });
    const auto unfolded = RunNetwork(*runtime, net, On({kCpuRef}, false), {x}, [](const OptimizedNetwork& network) {
      CHECK(network.GetPassLog().empty());
      CHECK(PlacementOf(network, "csum").type == LayerType::kElementwiseBinary);
      CHECK(PlacementOf(network, "crelu").backend == kCpuRef);
    });
    CHECK(Bitwise(folded[0], unfolded[0]));
    CHECK(Compare(folded[0], expected, 0) == "");
  }
  SUBCASE("folded on the first preferred backend that works on host memory") {
    TestRuntime runtime({test_plugins::host_share}, /*with_reference=*/false);
    const auto folded = RunNetwork(*runtime, net, On({"TestHostShare"}), {x}, [](const OptimizedNetwork& network) {
      CHECK(Logged(network, "folded constant layer 'csum' (ElementwiseBinary) on TestHostShare"));
      CHECK(Logged(network, "folded constant layer 'crelu' (Activation) on TestHostShare"));
      CHECK(PlacementOf(network, "add").backend == BackendId("TestHostShare"));
    });
    CHECK(Compare(folded[0], expected, 0) == "");
  }
  SUBCASE("not folded when no backend can run the layer on host memory") {
    TestRuntime runtime({test_plugins::valid_a}, /*with_reference=*/false);
    const auto kept = RunNetwork(*runtime, net, On({"TestValidA"}), {x}, [](const OptimizedNetwork& network) {
      CHECK(network.GetPassLog().empty());
      CHECK(PlacementOf(network, "csum").backend == BackendId("TestValidA"));
      CHECK(PlacementOf(network, "crelu").backend == BackendId("TestValidA"));
    });
    CHECK(Compare(kept[0], expected, 0) == "");
  }
}

// x [1,3,6,6] -> conv1 (3->4, 3x3, pad 1, bias optional) -> bn1 -> relu -> y
struct ConvBn {
  std::vector<float> w = Pseudorandom(4 * 3 * 9, 21, -0.5f, 0.5f);
  std::vector<float> bias = Pseudorandom(4, 22, -0.2f, 0.2f);
  std::vector<float> scale = Pseudorandom(4, 23, 0.5f, 1.5f);
  std::vector<float> shift = Pseudorandom(4, 24, -0.3f, 0.3f);
  std::vector<float> mean = Pseudorandom(4, 25, -0.2f, 0.2f);
  std::vector<float> variance = Pseudorandom(4, 26, 0.2f, 2.0f);
  TensorInfo input{{1, 3, 6, 6}, DataType::kFloat32};

  Network Build(bool with_bias, bool conv_also_read) const {
    Network net;
    const auto x = net.AddInput("x", input);
    Convolution2dDescriptor conv;
    conv.pads = {1, 1, 1, 1};
    std::vector<OutputSlot> inputs{x, net.AddConstant("conv1.weight", {4, 3, 3, 3}, w)};
    if (with_bias) inputs.push_back(net.AddConstant("conv1.bias", {4}, bias));
    const auto c = net.Add(conv, inputs, "conv1");
    BatchNormalizationDescriptor bn;
    bn.epsilon = 1e-3f;
    const auto normalized = net.Add(bn, {c, net.AddConstant("bn1.scale", {4}, scale), net.AddConstant("bn1.bias", {4}, shift),
                                         net.AddConstant("bn1.mean", {4}, mean), net.AddConstant("bn1.var", {4}, variance)},
                                    "bn1");
    net.AddOutput("y", net.Add(ActivationDescriptor{}, {normalized}, "relu"));
    if (conv_also_read) net.AddOutput("raw", c);
    return net;
  }

  std::vector<double> Forward(const std::vector<float>& x, bool with_bias) const {
    using namespace naive;
    const Tensor c = Conv2d(FromFloats({1, 3, 6, 6}, x), FromFloats({4, 3, 3, 3}, w),
                            with_bias ? AsDoubles(bias) : std::vector<double>{}, {1, 1}, {1, 1, 1, 1});
    return Relu(BatchNorm(c, AsDoubles(scale), AsDoubles(shift), AsDoubles(mean), AsDoubles(variance), 1e-3)).values;
  }
};

TEST_CASE("graph passes: batch normalization is folded into the preceding convolution") {
  TestRuntime runtime({});
  const ConvBn model;
  const auto x = Pseudorandom(1 * 3 * 6 * 6, 27);
  for (bool with_bias : {true, false}) {
    CAPTURE(with_bias);
    const Network net = model.Build(with_bias, false);
    const auto folded = RunNetwork(*runtime, net, On({kCpuRef}), {x}, [](const OptimizedNetwork& network) {
      INFO(network.Describe());
      CHECK(Logged(network, "folded batch normalization 'bn1' into convolution 'conv1'"));
      CHECK_FALSE(HasPlacement(network, "bn1"));
      CHECK_FALSE(HasPlacement(network, "bn1.mean"));
      CHECK(PlacementOf(network, "conv1").backend == kCpuRef);
      CHECK(EdgeOf(network, "conv1", "relu").strategy == EdgeStrategy::kDirect);
    });
    const auto unfolded = RunNetwork(*runtime, net, On({kCpuRef}, false), {x}, [](const OptimizedNetwork& network) {
      CHECK(PlacementOf(network, "bn1").backend == kCpuRef);
    });
    CHECK(Compare(folded[0], unfolded[0], 1e-5) == "");
    CHECK(Compare(folded[0], model.Forward(x, with_bias), 2e-5) == "");
    CHECK(Compare(unfolded[0], model.Forward(x, with_bias), 2e-5) == "");
  }
}

TEST_CASE("graph passes: batch normalization stays when the convolution's own output is read elsewhere") {
  TestRuntime runtime({});
  const ConvBn model;
  const auto x = Pseudorandom(1 * 3 * 6 * 6, 28);
  const auto y = RunNetwork(*runtime, model.Build(true, true), On({kCpuRef}), {x}, [](const OptimizedNetwork& network) {
    CHECK(PlacementOf(network, "bn1").backend == kCpuRef);
    CHECK(network.GetPassLog().empty());
  });
  REQUIRE(y.size() == 2);
  CHECK(Compare(y[0], model.Forward(x, true), 2e-5) == "");
}

// s = c2 - Transpose(x) * c1 (x [2, 3, 4, 5] made [2, 4, 5, 3]; c1 [3], c2 [1, 4, 1, 3]);
// `transposed_read_twice` also makes Transpose(x) an output.
Network MakeTransposedScale(bool transposed_read_twice) {
  Network net;
  const auto x = net.AddInput("x", TensorInfo{{2, 3, 4, 5}, DataType::kFloat32});
  TransposeDescriptor transpose;
  transpose.permutation = {0, 2, 3, 1};
  const auto t = net.Add(transpose, {x}, "t");
  ElementwiseBinaryDescriptor mul, sub;
  mul.operation = BinaryOperation::kMul;
  sub.operation = BinaryOperation::kSub;
  const auto m = net.Add(mul, {t, net.AddConstant("c1", {3}, Pseudorandom(3, 5))}, "m");
  net.AddOutput("out", net.Add(sub, {net.AddConstant("c2", {1, 4, 1, 3}, Pseudorandom(12, 6)), m}, "s"));
  if (transposed_read_twice) net.AddOutput("transposed", t);
  return net;
}

TEST_CASE("graph passes: ops with a constant operand move above the Transpose they read, exactly") {
  TestRuntime runtime({});
  const auto x = Pseudorandom(2 * 3 * 4 * 5, 29);
  const auto moved = RunNetwork(*runtime, MakeTransposedScale(false), On({kCpuRef}), {x},
                                [](const OptimizedNetwork& network) {
                                  INFO(network.Describe());
                                  CHECK(Logged(network, "moved 'm' above transpose 't'"));
                                  CHECK(Logged(network, "moved 's' above transpose 't'"));
                                  CHECK(EdgeOf(network, "s", "t").strategy == EdgeStrategy::kDirect);
                                });
  const auto as_is = RunNetwork(*runtime, MakeTransposedScale(false), On({kCpuRef}, false), {x});
  CHECK(Bitwise(moved[0], as_is[0]));
  // The same elements meet: c2[0, h, 0, c] - x[n, c, h, w] * c1[c] at [n, h, w, c].
  std::vector<double> expected(x.size());
  const auto c1 = Pseudorandom(3, 5), c2 = Pseudorandom(12, 6);
  for (int n = 0; n < 2; ++n) {
    for (int h = 0; h < 4; ++h) {
      for (int w = 0; w < 5; ++w) {
        for (int c = 0; c < 3; ++c) {
          expected[((n * 4 + h) * 5 + w) * 3 + c] = c2[h * 3 + c] - x[((n * 3 + c) * 4 + h) * 5 + w] * c1[c];
        }
      }
    }
  }
  CHECK(Compare(moved[0], expected, 1e-6) == "");
  // A Transpose read elsewhere too stays where it is.
  RunNetwork(*runtime, MakeTransposedScale(true), On({kCpuRef}), {x}, [](const OptimizedNetwork& network) {
    INFO(network.Describe());
    CHECK(network.GetPassLog().empty());
  });
}

TEST_CASE("graph passes: dead layers are removed before placement, even without optimize_graph") {
  TestRuntime runtime({test_plugins::valid_a}, /*with_reference=*/false);
  Network net = MakeAddRelu();
  // A convolution nothing reads: TestValidA could not run it, but it is never placed.
  Convolution2dDescriptor conv;
  const auto image = net.AddInput("image", TensorInfo{{1, 1, 3, 3}, DataType::kFloat32});
  const auto dead = net.Add(conv, {image, net.AddConstant("dead.weight", {1, 1, 1, 1}, std::vector<float>{2.0f})}, "dead");
  net.Add(ActivationDescriptor{}, {dead}, "dead_relu");
  const auto a = Pseudorandom(24, 1), b = Pseudorandom(24, 2);
  const std::vector<float> unused(9, 0.0f);
  for (bool optimize_graph : {true, false}) {
    CAPTURE(optimize_graph);
    const auto y = RunNetwork(*runtime, net, On({"TestValidA"}, optimize_graph), {a, b, unused},
                              [](const OptimizedNetwork& network) {
                                INFO(network.Describe());
                                CHECK(Logged(network, "removed dead layer 'dead'"));
                                CHECK(Logged(network, "removed dead layer 'dead_relu'"));
                                CHECK(Logged(network, "removed dead layer 'dead.weight'"));
                                CHECK_FALSE(HasPlacement(network, "dead"));
                                CHECK_FALSE(HasPlacement(network, "dead_relu"));
                                CHECK(HasPlacement(network, "image"));  // inputs stay bindable
                              });
    CHECK(Compare(y[0], AddReluForward(a, b), 0) == "");
  }
}

}  // namespace
}  // namespace backplane::unit
