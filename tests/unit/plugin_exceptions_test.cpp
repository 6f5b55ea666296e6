// Exceptions from backend code at run time (issue 18): whatever a backend throws from its layer
// support or a workload's Execute, of any type (`throw 42` included), becomes a status at the C
// boundary (the plugin's adapter) and then a backplane::Exception or a placement reason naming
// the backend, the function and the layer, and is logged; the application never terminates.
#include "capturing_log_sink.hpp"
#include "discovery_records.hpp"
#include "test_networks.hpp"
#include "test_plugins.hpp"
#include "test_runtime.hpp"

#include <backplane/runtime.hpp>

#include <doctest/doctest.h>

#include <functional>
#include <string>
#include <vector>

namespace backplane::unit {
namespace {

OptimizeOptions On(std::vector<BackendId> backends, bool strict = false) {
  OptimizeOptions options;
  options.backends = std::move(backends);
  options.strict = strict;
  return options;
}

// Layer support that throws: the layer goes to the next backend, the reason and a warning say why.
// The plugin's adapter turns what was thrown into a status at the C boundary; the runtime names
// the backend, the function and the layer. `what(layer)`: the status's message.
void CheckFallsBack(const TestPlugin& plugin, const std::function<std::string(const std::string&)>& what) {
  TestRuntime runtime({plugin});
  const BackendId id(plugin.id);
  const std::vector<float> a = Pseudorandom(24, 1), b = Pseudorandom(24, 2);
  const auto y = RunNetwork(*runtime, MakeAddRelu(), On({id, kCpuRef}), {a, b}, [&](const OptimizedNetwork& network) {
    INFO(network.Describe());
    for (const std::string layer : {"add", "relu"}) {
      const LayerPlacement& placement = PlacementOf(network, layer);
      CHECK(placement.backend == kCpuRef);
      CHECK(placement.reason == std::string(plugin.id) + ": backend " + plugin.id + ": is_layer_supported for layer '" +
                                    layer + "': " + what(layer) + "; placed on CpuRef");
    }
  });
  REQUIRE(y.size() == 1);
  CHECK(Compare(y[0], AddReluForward(a, b), 1e-6) == "");
  CHECK(runtime.Log().Contains(LogLevel::kWarning, LogCategory::kOptimize,
                               "backend " + std::string(plugin.id) + ": is_layer_supported for layer 'add': " +
                                   what("add")));
  CHECK(runtime.Log().Contains(LogLevel::kWarning, LogCategory::kOptimize, "the layer is not placed on " + id.Get()));
}

TEST_CASE("plugin exceptions: layer support throwing an int is logged and the layer placed elsewhere") {
  CheckFallsBack(test_plugins::layer_support_throws_int, [](const std::string&) { return "non-standard exception"; });
}

TEST_CASE("plugin exceptions: layer support throwing a std::exception is logged and the layer placed elsewhere") {
  CheckFallsBack(test_plugins::layer_support_throws_std, [](const std::string& layer) {
    return "TestSupportThrowsStd layer support failed on '" + layer + "': deliberate test failure";
  });
}

TEST_CASE("plugin exceptions: in strict mode a throwing layer support is an error naming backend and layer") {
  TestRuntime runtime({test_plugins::layer_support_throws_int});
  const Exception error = ThrowsException(
      [&] { runtime->Optimize(MakeAddRelu(), On({BackendId("TestSupportThrowsInt"), kCpuRef}, /*strict=*/true)); });
  CHECK(error.code() == ErrorCode::kUnsupported);
  CHECK(ContainsAll(error.what(), {"2 layers cannot be placed", "strict mode allows only TestSupportThrowsInt",
                                   "backend TestSupportThrowsInt: is_layer_supported for layer 'add': "
                                   "non-standard exception"}));
}

TEST_CASE("plugin exceptions: Execute throwing an int fails the run with an Exception, the context runs again") {
  TestRuntime runtime({test_plugins::execute_throws_int}, /*with_reference=*/false);
  const NetworkId id = Load(*runtime, MakeAddRelu(), On({BackendId("TestExecuteThrowsInt")}));
  const auto context = runtime->CreateExecutionContext(id);
  const NetworkSignature signature = runtime->GetNetworkSignature(id);
  std::vector<float> a = Pseudorandom(24, 3);
  const std::vector<float> b = Pseudorandom(24, 4);

  a[0] = 42.0f;  // the variant throws 42 for this input
  const Exception error = ThrowsException([&] { Run(*context, signature, {a, b}); });
  CHECK(error.code() == ErrorCode::kBackendFailure);
  CHECK(std::string(error.what()) == "network " + std::to_string(id) +
                                         ", layer 'add' on TestExecuteThrowsInt: backend TestExecuteThrowsInt: "
                                         "execute for layer 'add': non-standard exception");
  CHECK(runtime.Log().Contains(LogLevel::kWarning, LogCategory::kExecute,
                               "run failed: network " + std::to_string(id) + ", layer 'add'"));

  a[0] = 1.0f;
  const auto y = Run(*context, signature, {a, b});
  REQUIRE(y.size() == 1);
  CHECK(Compare(y[0], AddReluForward(a, b), 1e-6) == "");
}

}  // namespace
}  // namespace backplane::unit
