// Placement across backends (issue 3, section 2 and "Done when"): the small CNN and MLP on the
// reference backend alone match independent naive computations; split across CpuRef and a
// partial test backend (Add and ReLU only) they give the same bits, with the expected placement
// of every layer, edge strategies and copy counts. Pins, strict mode and the error that lists
// every unsupported layer; OptimizeSubgraph substitutions.
#include "test_networks.hpp"
#include "test_plugins.hpp"
#include "test_runtime.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/runtime.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <set>

namespace backplane::unit {
namespace {

constexpr double kTolerance = 2e-5;

OptimizeOptions On(std::vector<BackendId> backends) {
  OptimizeOptions options;
  options.backends = std::move(backends);
  return options;
}

// The reason a layer gets when `first` refuses it and CpuRef takes it.
std::string RefusedThenCpuRef(const TestPlugin& first, const std::string& layer, const std::string& why) {
  return std::string(first.id) + ": " + first.id + " cannot run layer '" + layer + "': " + why + "; placed on CpuRef";
}

// Every edge between `a` and `b` layers of the network.
struct ExpectedEdge {
  std::string producer;
  std::string consumer;
};

// Checks that the edges in `cross` have `strategy`, every other edge is direct, and the copy
// count is the number of copies among them.
void CheckEdges(const OptimizedNetwork& network, const std::vector<ExpectedEdge>& cross, EdgeStrategy strategy) {
  INFO(network.Describe());
  std::set<std::pair<std::string, std::string>> crossing;
  for (const auto& edge : cross) {
    crossing.insert({edge.producer, edge.consumer});
    const EdgeReport& report = EdgeOf(network, edge.producer, edge.consumer);
    CHECK_MESSAGE(report.strategy == strategy, edge.producer << " -> " << edge.consumer << ": "
                                                             << ToString(report.strategy));
  }
  for (const auto& edge : network.GetEdges()) {
    if (!crossing.count({edge.producer, edge.consumer})) {
      CHECK_MESSAGE(edge.strategy == EdgeStrategy::kDirect, edge.producer << " -> " << edge.consumer << ": "
                                                                          << ToString(edge.strategy));
    }
  }
  CHECK(network.GetCopyCount() == (strategy == EdgeStrategy::kCopy ? cross.size() : 0));
}

TEST_CASE("placement: the small CNN on CpuRef alone matches a naive computation") {
  TestRuntime runtime({});
  const SmallCnn cnn;
  const auto x = cnn.MakeInput(1);
  const auto y = RunNetwork(*runtime, cnn.network(), On({kCpuRef}), {x}, [](const OptimizedNetwork& network) {
    for (const auto& layer : SmallCnn::ComputeLayers()) {
      const LayerPlacement& placement = PlacementOf(network, layer);
      CHECK(placement.backend == kCpuRef);
      CHECK(placement.reason == "first preferred backend that supports it");
    }
    CHECK(PlacementOf(network, "x").backend.IsEmpty());
    CHECK(PlacementOf(network, "conv1.weight").type == LayerType::kConstant);
    CHECK(network.GetCopyCount() == 0);
  });
  REQUIRE(y.size() == 1);
  CHECK(Compare(y[0], cnn.Forward(x), kTolerance) == "");
}

TEST_CASE("placement: the small MLP on CpuRef alone matches a naive computation") {
  TestRuntime runtime({});
  const SmallMlp mlp;
  const auto x = mlp.MakeInput(1);
  const auto y = RunNetwork(*runtime, mlp.network(), On({kCpuRef}), {x}, [](const OptimizedNetwork& network) {
    for (const auto& layer : SmallMlp::ComputeLayers()) CHECK(PlacementOf(network, layer).backend == kCpuRef);
  });
  REQUIRE(y.size() == 1);
  CHECK(Compare(y[0], mlp.Forward(x), kTolerance) == "");
}

// One partial backend with each way its tensors can meet CpuRef's host memory.
struct Variant {
  TestPlugin plugin;
  EdgeStrategy cross;  // what every edge between it and CpuRef becomes
};

std::vector<Variant> PartialBackends() {
  return {{test_plugins::valid_a, EdgeStrategy::kExportImport},
          {test_plugins::host_share, EdgeStrategy::kDirect},
          {test_plugins::copy_only, EdgeStrategy::kCopy}};
}

TEST_CASE("placement: the small CNN split across a partial backend and CpuRef gives identical results") {
  const SmallCnn cnn;
  const auto x = cnn.MakeInput(7);
  for (const Variant& variant : PartialBackends()) {
    CAPTURE(variant.plugin.id);
    TestRuntime runtime({variant.plugin});
    const BackendId partial = variant.plugin.id;
    const auto alone = RunNetwork(*runtime, cnn.network(), On({kCpuRef}), {x});
    const auto split = RunNetwork(*runtime, cnn.network(), On({partial, kCpuRef}), {x}, [&](const OptimizedNetwork& network) {
      INFO(network.Describe());
      CHECK(PlacementOf(network, "relu1").backend == partial);
      CHECK(PlacementOf(network, "relu1").reason == "first preferred backend that supports it");
      CHECK(PlacementOf(network, "add1").backend == partial);
      CHECK(PlacementOf(network, "conv1").backend == kCpuRef);
      CHECK(PlacementOf(network, "conv1").reason ==
            RefusedThenCpuRef(variant.plugin, "conv1", "it has no kernel for Convolution2d layers"));
      for (const char* layer : {"pool1", "conv2", "gap", "flatten", "fc", "softmax"}) {
        CHECK_MESSAGE(PlacementOf(network, layer).backend == kCpuRef, layer);
      }
      // Execution order: every layer after its producers.
      std::vector<std::string> order;
      for (const auto& placement : network.GetPlacement()) order.push_back(placement.layer);
      const auto at = [&](const char* name) { return std::find(order.begin(), order.end(), name) - order.begin(); };
      CHECK(at("conv1") < at("relu1"));
      CHECK(at("relu1") < at("pool1"));
      CHECK(at("conv2") < at("add1"));
      CHECK(at("add1") < at("gap"));
      CheckEdges(network,
                 {{"conv1", "relu1"}, {"relu1", "pool1"}, {"pool1", "add1"}, {"conv2", "add1"}, {"add1", "gap"}},
                 variant.cross);
      CHECK(EdgeOf(network, "pool1", "conv2").strategy == EdgeStrategy::kDirect);
      CHECK(ContainsAll(network.Describe(), {"relu1 (Activation) -> " + partial.Get(),
                                             "copies: " + std::to_string(network.GetCopyCount())}));
    });
    REQUIRE(split.size() == 1);
    CHECK(Bitwise(split[0], alone[0]));
    CHECK(Compare(split[0], cnn.Forward(x), kTolerance) == "");
  }
}

TEST_CASE("placement: the small MLP split across a partial backend and CpuRef gives identical results") {
  const SmallMlp mlp;
  const auto x = mlp.MakeInput(3);
  for (const Variant& variant : PartialBackends()) {
    CAPTURE(variant.plugin.id);
    TestRuntime runtime({variant.plugin});
    const BackendId partial = variant.plugin.id;
    const auto alone = RunNetwork(*runtime, mlp.network(), On({kCpuRef}), {x});
    const auto split = RunNetwork(*runtime, mlp.network(), On({partial, kCpuRef}), {x}, [&](const OptimizedNetwork& network) {
      INFO(network.Describe());
      CHECK(PlacementOf(network, "residual").backend == partial);
      CHECK(PlacementOf(network, "gelu").backend == kCpuRef);
      CHECK(PlacementOf(network, "gelu").reason ==
            RefusedThenCpuRef(variant.plugin, "gelu", "activation function Gelu is not supported (only Relu)"));
      CHECK(PlacementOf(network, "fc1").backend == kCpuRef);
      CHECK(PlacementOf(network, "norm").backend == kCpuRef);
      CheckEdges(network, {{"fc2", "residual"}, {"x", "residual"}, {"residual", "norm"}}, variant.cross);
    });
    REQUIRE(split.size() == 1);
    CHECK(Bitwise(split[0], alone[0]));
    CHECK(Compare(split[0], mlp.Forward(x), kTolerance) == "");
  }
}

TEST_CASE("placement: the partial backend refuses what its descriptors or shapes rule out, with reasons") {
  TestRuntime runtime({test_plugins::valid_a});
  Network net;
  const auto a = net.AddInput("a", kAddReluInfo);
  const auto row = net.AddInput("row", TensorInfo{{4}, DataType::kFloat32});
  const auto broadcast = net.Add(ElementwiseBinaryDescriptor{}, {a, row}, "broadcast");
  ElementwiseBinaryDescriptor sub;
  sub.operation = BinaryOperation::kSub;
  const auto difference = net.Add(sub, {broadcast, a}, "difference");
  ActivationDescriptor sigmoid;
  sigmoid.function = ActivationFunction::kSigmoid;
  const auto squashed = net.Add(sigmoid, {difference}, "sigmoid");
  const auto sum = net.Add(ElementwiseBinaryDescriptor{}, {squashed, a}, "sum");
  net.AddOutput("y", net.Add(ActivationDescriptor{}, {sum}, "relu"));

  const auto av = Pseudorandom(24, 1);
  const auto rowv = Pseudorandom(4, 2);
  const auto y = RunNetwork(*runtime, net, On({"TestValidA", kCpuRef}), {av, rowv}, [&](const OptimizedNetwork& network) {
    INFO(network.Describe());
    CHECK(PlacementOf(network, "broadcast").reason ==
          RefusedThenCpuRef(test_plugins::valid_a, "broadcast",
                            "broadcasting is not supported: input shapes [2,3,4] and [4] differ"));
    CHECK(PlacementOf(network, "difference").reason ==
          RefusedThenCpuRef(test_plugins::valid_a, "difference", "operation Sub is not supported (only Add)"));
    CHECK(PlacementOf(network, "sigmoid").reason ==
          RefusedThenCpuRef(test_plugins::valid_a, "sigmoid", "activation function Sigmoid is not supported (only Relu)"));
    CHECK(PlacementOf(network, "sum").backend == BackendId("TestValidA"));
    CHECK(PlacementOf(network, "relu").backend == BackendId("TestValidA"));
  });
  std::vector<double> expected(24);
  for (std::size_t i = 0; i < 24; ++i) {
    const double d = (static_cast<double>(av[i]) + rowv[i % 4]) - av[i];
    const double s = 1.0 / (1.0 + std::exp(-d)) + av[i];
    expected[i] = std::max(0.0, s);
  }
  CHECK(Compare(y[0], expected, 1e-5) == "");
}

TEST_CASE("placement: a pin to a backend that cannot run the layer fails naming the layer and the reason") {
  TestRuntime runtime({test_plugins::valid_a});
  const SmallCnn cnn;
  OptimizeOptions options = On({"TestValidA", kCpuRef});
  options.pins["conv2"] = "TestValidA";
  const Exception error = ThrowsException([&] { runtime->Optimize(cnn.network(), options); });
  CHECK(error.code() == ErrorCode::kUnsupported);
  CHECK(std::string(error.what()) ==
        "1 layer cannot be placed on any allowed backend:\n"
        "  'conv2' (Convolution2d): pinned, and TestValidA: TestValidA cannot run layer 'conv2': "
        "it has no kernel for Convolution2d layers");

  // The same through Network::PinLayer.
  Network net = MakeAddRelu();
  ElementwiseBinaryDescriptor mul;
  mul.operation = BinaryOperation::kMul;
  const auto a = OutputSlot{net.FindLayer("a"), 0};
  net.AddOutput("z", net.Add(mul, {a, a}, "square"));
  net.PinLayer("square", "TestValidA");
  const Exception pinned = ThrowsException([&] { runtime->Optimize(net, On({kCpuRef})); });
  CHECK(pinned.code() == ErrorCode::kUnsupported);
  CHECK(ContainsAll(pinned.what(), {"'square' (ElementwiseBinary): pinned, and TestValidA:",
                                    "operation Mul is not supported (only Add)"}));

  // A pin to a backend the runtime does not know.
  OptimizeOptions unknown = On({kCpuRef});
  unknown.pins["relu"] = "NoSuchBackend";
  const Exception missing = ThrowsException([&] { runtime->Optimize(net, unknown); });
  CHECK(missing.code() == ErrorCode::kNotFound);
  CHECK(ContainsAll(missing.what(), {"NoSuchBackend", "not registered", "TestValidA", "CpuRef"}));
}

TEST_CASE("placement: a pin is honoured when the backend can run the layer") {
  TestRuntime runtime({test_plugins::valid_a});
  const SmallCnn cnn;
  const auto x = cnn.MakeInput(2);
  const auto alone = RunNetwork(*runtime, cnn.network(), On({kCpuRef}), {x});

  SUBCASE("pinned away from the first preferred backend") {
    OptimizeOptions options = On({"TestValidA", kCpuRef});
    options.pins["relu1"] = kCpuRef;
    const auto y = RunNetwork(*runtime, cnn.network(), options, {x}, [](const OptimizedNetwork& network) {
      CHECK(PlacementOf(network, "relu1").backend == kCpuRef);
      CHECK(PlacementOf(network, "relu1").reason == "pinned to CpuRef");
      CHECK(PlacementOf(network, "add1").backend == BackendId("TestValidA"));
    });
    CHECK(Bitwise(y[0], alone[0]));
  }
  SUBCASE("pinned to a backend that is not among the preferences") {
    OptimizeOptions options = On({kCpuRef});
    options.pins["add1"] = "TestValidA";
    const auto y = RunNetwork(*runtime, cnn.network(), options, {x}, [](const OptimizedNetwork& network) {
      CHECK(PlacementOf(network, "add1").backend == BackendId("TestValidA"));
      CHECK(PlacementOf(network, "add1").reason == "pinned to TestValidA");
      CHECK(PlacementOf(network, "relu1").backend == kCpuRef);
    });
    CHECK(Bitwise(y[0], alone[0]));
  }
  SUBCASE("OptimizeOptions::pins overrides Network::PinLayer") {
    Network net = MakeAddRelu();
    net.PinLayer("relu", "TestValidA");
    OptimizeOptions options = On({"TestValidA", kCpuRef});
    options.pins["relu"] = kCpuRef;
    const auto optimized = runtime->Optimize(net, options);
    CHECK(PlacementOf(optimized, "relu").backend == kCpuRef);
    CHECK(PlacementOf(optimized, "add").backend == BackendId("TestValidA"));
  }
}

TEST_CASE("placement: strict mode fails listing every layer the first backend refuses, with its reason") {
  TestRuntime runtime({test_plugins::valid_a});
  const SmallCnn cnn;
  OptimizeOptions options = On({"TestValidA", kCpuRef});
  options.strict = true;
  const Exception error = ThrowsException([&] { runtime->Optimize(cnn.network(), options); });
  CHECK(error.code() == ErrorCode::kUnsupported);
  const std::string text = error.what();
  CHECK(text.rfind("7 layers cannot be placed on any allowed backend:", 0) == 0);
  CHECK(ContainsAll(text, {"'conv1' (Convolution2d): strict mode allows only TestValidA, and TestValidA: "
                           "TestValidA cannot run layer 'conv1': it has no kernel for Convolution2d layers",
                           "'pool1' (Pooling2d)", "'conv2' (Convolution2d)", "'gap' (Pooling2d)",
                           "'flatten' (Flatten): strict mode allows only TestValidA",
                           "'fc' (FullyConnected)", "'softmax' (Softmax)"}));
  CHECK_FALSE(ContainsAll(text, {"'relu1'"}));
  CHECK_FALSE(ContainsAll(text, {"'add1'"}));
  CHECK_FALSE(ContainsAll(text, {"placed on CpuRef"}));

  // Strict mode with every layer supported by the first backend works, and CpuRef takes nothing.
  const auto a = Pseudorandom(24, 5), b = Pseudorandom(24, 6);
  const auto y = RunNetwork(*runtime, MakeAddRelu(), options, {a, b}, [](const OptimizedNetwork& network) {
    CHECK(PlacementOf(network, "add").backend == BackendId("TestValidA"));
    CHECK(PlacementOf(network, "relu").backend == BackendId("TestValidA"));
  });
  CHECK(Compare(y[0], AddReluForward(a, b), 0) == "");

  // A pin overrides strict mode for its layer.
  OptimizeOptions pinned = options;
  for (const char* layer : {"conv1", "pool1", "conv2", "gap", "flatten", "fc"}) pinned.pins[layer] = kCpuRef;
  const Exception one_left = ThrowsException([&] { runtime->Optimize(cnn.network(), pinned); });
  CHECK(ContainsAll(one_left.what(), {"1 layer cannot be placed", "'softmax' (Softmax): strict mode allows only TestValidA"}));
}

TEST_CASE("placement: without strict mode a failure still lists every unsupported layer at once") {
  TestRuntime runtime({test_plugins::valid_a});
  const SmallMlp mlp;
  const Exception error = ThrowsException([&] { runtime->Optimize(mlp.network(), On({"TestValidA"})); });
  CHECK(error.code() == ErrorCode::kUnsupported);
  const std::string text = error.what();
  CHECK(text.rfind("4 layers cannot be placed on any allowed backend:", 0) == 0);
  CHECK(ContainsAll(text, {"'fc1' (FullyConnected): TestValidA: TestValidA cannot run layer 'fc1': "
                           "it has no kernel for FullyConnected layers",
                           "'gelu' (Activation): TestValidA: TestValidA cannot run layer 'gelu': "
                           "activation function Gelu is not supported (only Relu)",
                           "'fc2' (FullyConnected)", "'norm' (LayerNormalization)"}));
  CHECK_FALSE(ContainsAll(text, {"'residual'"}));
}

// a, b, c [2,3,4]: add1 = a + b, relu1, add2 = relu1 + c, relu2, y = relu2 * c (Mul: CpuRef).
Network MakeTwoAddReluPairs() {
  Network net;
  const auto a = net.AddInput("a", kAddReluInfo);
  const auto b = net.AddInput("b", kAddReluInfo);
  const auto c = net.AddInput("c", kAddReluInfo);
  const auto add1 = net.Add(ElementwiseBinaryDescriptor{}, {a, b}, "add1");
  const auto relu1 = net.Add(ActivationDescriptor{}, {add1}, "relu1");
  const auto add2 = net.Add(ElementwiseBinaryDescriptor{}, {relu1, c}, "add2");
  const auto relu2 = net.Add(ActivationDescriptor{}, {add2}, "relu2");
  ElementwiseBinaryDescriptor mul;
  mul.operation = BinaryOperation::kMul;
  net.AddOutput("y", net.Add(mul, {relu2, c}, "mul"));
  return net;
}

TEST_CASE("placement: OptimizeSubgraph substitutions are applied and give identical results") {
  TestRuntime runtime({test_plugins::fuse});
  const BackendId fuse = test_plugins::fuse.id;
  const auto a = Pseudorandom(24, 11), b = Pseudorandom(24, 12), c = Pseudorandom(24, 13);

  SUBCASE("two Add+ReLU pairs in one subgraph") {
    const Network net = MakeTwoAddReluPairs();
    const auto alone = RunNetwork(*runtime, net, On({kCpuRef}), {a, b, c});
    OptimizeOptions unfused = On({fuse, kCpuRef});
    unfused.optimize_graph = false;
    const auto plain = RunNetwork(*runtime, net, unfused, {a, b, c}, [&](const OptimizedNetwork& network) {
      CHECK(PlacementOf(network, "add1").backend == fuse);
      CHECK_FALSE(HasPlacement(network, "add1+relu1"));
    });
    const auto fused = RunNetwork(*runtime, net, On({fuse, kCpuRef}), {a, b, c}, [&](const OptimizedNetwork& network) {
      INFO(network.Describe());
      for (const char* gone : {"add1", "relu1", "add2", "relu2"}) CHECK_FALSE(HasPlacement(network, gone));
      for (const char* name : {"add1+relu1", "add2+relu2"}) {
        const LayerPlacement& placement = PlacementOf(network, name);
        CHECK(placement.type == LayerType::kPreCompiled);
        CHECK(placement.backend == fuse);
      }
      CHECK(PlacementOf(network, "add1+relu1").reason == "fused from add1, relu1 by TestFuse");
      CHECK(PlacementOf(network, "mul").backend == kCpuRef);
      const auto& log = network.GetPassLog();
      CHECK(std::count(log.begin(), log.end(), "TestFuse fused add1, relu1 into 'add1+relu1'") == 1);
      CHECK(std::count(log.begin(), log.end(), "TestFuse fused add2, relu2 into 'add2+relu2'") == 1);
      CHECK(EdgeOf(network, "add1+relu1", "add2+relu2").strategy == EdgeStrategy::kDirect);
      CHECK(EdgeOf(network, "add2+relu2", "mul").strategy == EdgeStrategy::kDirect);
    });
    std::vector<double> expected(24);
    for (std::size_t i = 0; i < 24; ++i) {
      const float r1 = std::max(a[i] + b[i], 0.0f);
      expected[i] = static_cast<double>(std::max(r1 + c[i], 0.0f) * c[i]);
    }
    CHECK(Compare(alone[0], expected, 0) == "");
    CHECK(Bitwise(plain[0], alone[0]));
    CHECK(Bitwise(fused[0], alone[0]));
  }
  SUBCASE("the Add's result is also read outside the pair: the fused layer has two outputs") {
    Network net;
    const auto in_a = net.AddInput("a", kAddReluInfo);
    const auto in_b = net.AddInput("b", kAddReluInfo);
    const auto add = net.Add(ElementwiseBinaryDescriptor{}, {in_a, in_b}, "add");
    const auto relu = net.Add(ActivationDescriptor{}, {add}, "relu");
    ElementwiseBinaryDescriptor sub;
    sub.operation = BinaryOperation::kSub;
    net.AddOutput("y", net.Add(sub, {relu, add}, "sub"));  // relu(s) - s = max(-s, 0)
    net.AddOutput("s", add);
    const auto alone = RunNetwork(*runtime, net, On({kCpuRef}), {a, b});
    const auto fused = RunNetwork(*runtime, net, On({fuse, kCpuRef}), {a, b}, [&](const OptimizedNetwork& network) {
      CHECK(PlacementOf(network, "add+relu").type == LayerType::kPreCompiled);
      CHECK(EdgeOf(network, "add+relu", "sub").strategy == EdgeStrategy::kDirect);
    });
    REQUIRE(fused.size() == 2);
    CHECK(Bitwise(fused[0], alone[0]));
    CHECK(Bitwise(fused[1], alone[1]));
    std::vector<double> sum(24), y(24);
    for (std::size_t i = 0; i < 24; ++i) {
      sum[i] = a[i] + b[i];
      y[i] = std::max(-(a[i] + b[i]), 0.0f);
    }
    CHECK(Compare(fused[0], y, 0) == "");
    CHECK(Compare(fused[1], sum, 0) == "");
  }
  SUBCASE("x + x: the fused layer has one input") {
    Network net;
    const auto in_a = net.AddInput("a", kAddReluInfo);
    const auto twice = net.Add(ElementwiseBinaryDescriptor{}, {in_a, in_a}, "double");
    net.AddOutput("y", net.Add(ActivationDescriptor{}, {twice}, "relu"));
    const auto fused = RunNetwork(*runtime, net, On({fuse}), {a}, [&](const OptimizedNetwork& network) {
      CHECK(PlacementOf(network, "double+relu").backend == fuse);
    });
    std::vector<double> expected(24);
    for (std::size_t i = 0; i < 24; ++i) expected[i] = std::max(a[i] + a[i], 0.0f);
    CHECK(Compare(fused[0], expected, 0) == "");
  }
}

}  // namespace
}  // namespace backplane::unit
