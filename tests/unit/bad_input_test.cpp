// Bad input (issue 3, section 5): wrong bindings, broken graphs, unknown ids and backends. Each
// gets a clear error with the right code that says what and where, nothing is run or half-done,
// and the runtime keeps working afterwards.
#include "test_networks.hpp"
#include "test_plugins.hpp"
#include "test_runtime.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/runtime.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <functional>

namespace backplane::unit {
namespace {

OptimizeOptions On(std::vector<BackendId> backends) {
  OptimizeOptions options;
  options.backends = std::move(backends);
  return options;
}

// The runtime still optimizes, loads, runs and unloads a good network correctly.
void CheckStillWorks(Runtime& runtime) {
  const auto a = Pseudorandom(24, 77), b = Pseudorandom(24, 78);
  const auto y = RunNetwork(runtime, MakeAddRelu(), On({"TestValidA"}), {a, b});
  CHECK(Compare(y[0], AddReluForward(a, b), 0) == "");
}

TEST_CASE("bad input: wrong bindings are refused by name, with both shapes or types, and nothing runs") {
  TestRuntime runtime({test_plugins::valid_a}, /*with_reference=*/false);
  const NetworkId id = Load(*runtime, MakeAddRelu(), On({"TestValidA"}));
  auto context = runtime->CreateExecutionContext(id);
  const auto a = Pseudorandom(24, 1), b = Pseudorandom(24, 2);
  const std::vector<std::int32_t> ints(24, 1);
  std::vector<float> y(24, -7.0f);
  const TensorInfo wrong_shape{{2, 3, 5}, DataType::kFloat32};
  const TensorInfo wrong_type{{2, 3, 4}, DataType::kInt32};
  const InputBinding good_a{"a", {kAddReluInfo, a.data()}};
  const InputBinding good_b{"b", {kAddReluInfo, b.data()}};
  const OutputBinding good_y{"y", {kAddReluInfo, y.data()}};

  struct Case {
    const char* what;
    std::vector<InputBinding> inputs;
    std::vector<OutputBinding> outputs;
    std::vector<std::string> message;
  };
  const std::vector<Case> cases{
      {"wrong shape", {{"a", {wrong_shape, a.data()}}, good_b}, {good_y},
       {"input 'a' has shape [2,3,5], the network expects [2,3,4]"}},
      {"wrong type", {good_a, {"b", {wrong_type, ints.data()}}}, {good_y}, {"input 'b' is i32, the network expects f32"}},
      {"unknown input", {good_a, good_b, {"c", {kAddReluInfo, a.data()}}}, {good_y},
       {"unknown input 'c'; the network's inputs are: a, b"}},
      {"missing input", {good_a}, {good_y}, {"input 'b' is not bound"}},
      {"duplicate input", {good_a, good_b, good_a}, {good_y}, {"input 'a' is bound twice"}},
      {"null input", {good_a, {"b", {kAddReluInfo, nullptr}}}, {good_y}, {"input 'b' has no data (null pointer)"}},
      {"wrong output shape", {good_a, good_b}, {{"y", {wrong_shape, y.data()}}},
       {"output 'y' has shape [2,3,5], the network expects [2,3,4]"}},
      {"unknown output", {good_a, good_b}, {good_y, {"z", {kAddReluInfo, y.data()}}},
       {"unknown output 'z'; the network's outputs are: y"}},
      {"missing output", {good_a, good_b}, {}, {"output 'y' is not bound"}},
      {"null output", {good_a, good_b}, {{"y", {kAddReluInfo, nullptr}}}, {"output 'y' has no data (null pointer)"}},
  };
  for (const Case& c : cases) {
    CAPTURE(c.what);
    const Exception error = ThrowsException([&] { context->Run(c.inputs, c.outputs); });
    CHECK(error.code() == ErrorCode::kInvalidArgument);
    CHECK_MESSAGE(ContainsAll(error.what(), c.message), error.what());
    CHECK_MESSAGE(ContainsAll(error.what(), {"network " + std::to_string(id) + ": ", "; nothing was run"}), error.what());
    CHECK(std::all_of(y.begin(), y.end(), [](float v) { return v == -7.0f; }));  // untouched
  }
  // The same context, and a new one, still run correctly.
  context->Run({good_a, good_b}, {good_y});
  CHECK(Compare(y, AddReluForward(a, b), 0) == "");
  CHECK(Compare(RunOnce(*runtime, id, {b, a})[0], AddReluForward(b, a), 0) == "");
  CheckStillWorks(*runtime);
}

TEST_CASE("bad input: an unconnected input slot fails Optimize naming the layer and the input") {
  TestRuntime runtime({test_plugins::valid_a}, /*with_reference=*/false);
  Network net;
  const auto a = net.AddInput("a", kAddReluInfo);
  const LayerId add = net.AddLayer(ElementwiseBinaryDescriptor{}, "add", {a});  // input 1 missing
  net.AddOutput("y", net.Add(ActivationDescriptor{}, {{add, 0}}, "relu"));
  const Exception error = ThrowsException([&] { runtime->Optimize(net, On({"TestValidA"})); });
  CHECK(error.code() == ErrorCode::kInvalidArgument);
  CHECK(ContainsAll(error.what(), {"(ElementwiseBinary)", "'add'"}));
  CHECK(ContainsAll(error.what(), {"takes 2 inputs, has 1"}));
  // A slot in the middle left empty: named by index.
  Network gap;
  const auto x = gap.AddInput("x", kAddReluInfo);
  const LayerId sum = gap.AddLayer(ElementwiseBinaryDescriptor{}, "sum", {});
  gap.Connect(x, {sum, 1});
  gap.AddOutput("y", {sum, 0});
  const Exception missing = ThrowsException([&] { runtime->Optimize(gap, On({"TestValidA"})); });
  CHECK(missing.code() == ErrorCode::kInvalidArgument);
  CHECK(ContainsAll(missing.what(), {"input 0 of layer 'sum' (ElementwiseBinary) is not connected"}));
  CheckStillWorks(*runtime);
}

TEST_CASE("bad input: a cyclic graph fails naming the layers of the cycle") {
  TestRuntime runtime({test_plugins::valid_a}, /*with_reference=*/false);
  Network net;
  const auto a = net.AddInput("a", kAddReluInfo);
  const LayerId add = net.AddLayer(ElementwiseBinaryDescriptor{}, "add", {a});
  const auto relu = net.Add(ActivationDescriptor{}, {{add, 0}}, "relu");
  net.Connect(relu, {add, 1});
  net.AddOutput("y", relu);
  const Exception error = ThrowsException([&] { runtime->Optimize(net, On({"TestValidA"})); });
  CHECK(error.code() == ErrorCode::kInvalidArgument);
  CHECK(ContainsAll(error.what(), {"cycle", "'add' (ElementwiseBinary)", "'relu' (Activation)"}));
  CHECK_FALSE(ContainsAll(error.what(), {"'a' (Input)"}));
  const Exception info = ThrowsException([&] { net.GetOutputInfo(relu); });
  CHECK(ContainsAll(info.what(), {"cycle", "'add'", "'relu'"}));
  CheckStillWorks(*runtime);
}

TEST_CASE("bad input: shapes that do not fit fail Optimize naming the layer, so does a network with no output") {
  TestRuntime runtime({test_plugins::valid_a}, /*with_reference=*/false);
  Network net;
  const auto a = net.AddInput("a", kAddReluInfo);
  const auto b = net.AddInput("b", TensorInfo{{5}, DataType::kFloat32});
  net.AddOutput("y", net.Add(ElementwiseBinaryDescriptor{}, {a, b}, "add"));
  const Exception error = ThrowsException([&] { runtime->Optimize(net, On({"TestValidA"})); });
  CHECK(error.code() == ErrorCode::kInvalidArgument);
  CHECK(ContainsAll(error.what(), {"layer 'add' (ElementwiseBinary)", "[2,3,4]", "[5]", "do not broadcast"}));

  Network silent;
  silent.Add(ActivationDescriptor{}, {silent.AddInput("a", kAddReluInfo)}, "relu");
  const Exception no_output = ThrowsException([&] { runtime->Optimize(silent, On({"TestValidA"})); });
  CHECK(no_output.code() == ErrorCode::kInvalidArgument);
  CHECK(ContainsAll(no_output.what(), {"no output"}));
  CheckStillWorks(*runtime);
}

TEST_CASE("bad input: unknown network ids and unloaded networks are kNotFound, contexts of unloaded networks refuse to run") {
  TestRuntime runtime({test_plugins::valid_a}, /*with_reference=*/false);
  for (const auto& call : std::vector<std::function<void()>>{
           [&] { runtime->CreateExecutionContext(999); },
           [&] { runtime->GetNetworkSignature(999); },
           [&] { runtime->UnloadNetwork(999); },
       }) {
    const Exception error = ThrowsException(call);
    CHECK(error.code() == ErrorCode::kNotFound);
    CHECK(ContainsAll(error.what(), {"no network 999 is loaded in this runtime"}));
  }

  const NetworkId id = Load(*runtime, MakeAddRelu(), On({"TestValidA"}));
  auto context = runtime->CreateExecutionContext(id);
  runtime->UnloadNetwork(id);
  const auto a = Pseudorandom(24, 1), b = Pseudorandom(24, 2);
  std::vector<float> y(24);
  const Exception unloaded = ThrowsException(
      [&] { context->Run({{"a", {kAddReluInfo, a.data()}}, {"b", {kAddReluInfo, b.data()}}}, {{"y", {kAddReluInfo, y.data()}}}); });
  CHECK(unloaded.code() == ErrorCode::kNotFound);
  CHECK(ContainsAll(unloaded.what(), {"network " + std::to_string(id) + " was unloaded"}));
  const Exception again = ThrowsException([&] { runtime->UnloadNetwork(id); });
  CHECK(again.code() == ErrorCode::kNotFound);
  CHECK(ThrowsException([&] { runtime->CreateExecutionContext(id); }).code() == ErrorCode::kNotFound);
  CHECK(ThrowsException([&] { runtime->GetNetworkSignature(id); }).code() == ErrorCode::kNotFound);
  CheckStillWorks(*runtime);
}

TEST_CASE("bad input: Optimize with an unknown backend names it and the registered ones") {
  TestRuntime runtime({test_plugins::valid_a}, /*with_reference=*/false);
  const Exception error = ThrowsException([&] { runtime->Optimize(MakeAddRelu(), On({"TestValidA", "NoSuchBackend"})); });
  CHECK(error.code() == ErrorCode::kNotFound);
  CHECK(ContainsAll(error.what(), {"backend NoSuchBackend is not registered (registered: TestValidA)"}));
  CheckStillWorks(*runtime);
}

TEST_CASE("bad input: a network whose layers no allowed backend runs is kUnsupported, and nothing is loaded") {
  TestRuntime runtime({test_plugins::valid_a}, /*with_reference=*/false);
  Network net;
  SoftmaxDescriptor softmax;
  net.AddOutput("y", net.Add(softmax, {net.AddInput("a", kAddReluInfo)}, "softmax"));
  const Exception error = ThrowsException([&] { runtime->Optimize(net, On({"TestValidA"})); });
  CHECK(error.code() == ErrorCode::kUnsupported);
  CHECK(ContainsAll(error.what(), {"'softmax' (Softmax): TestValidA: TestValidA cannot run layer 'softmax': "
                                   "it has no kernel for Softmax layers"}));
  CHECK(ThrowsException([&] { runtime->GetNetworkSignature(1); }).code() == ErrorCode::kNotFound);
  CheckStillWorks(*runtime);
}

}  // namespace
}  // namespace backplane::unit
