// Lifetimes (issue 3, section 3): unloading and then destroying the runtime releases everything
// in order with the plugin library closed last; contexts that outlive their network or the
// runtime refuse to run instead of crashing, and keep the plugin's code mapped until they go.
#include "plugin_trace.hpp"
#include "test_networks.hpp"
#include "test_plugins.hpp"
#include "test_runtime.hpp"

#include <backplane/runtime.hpp>

#include <doctest/doctest.h>

namespace backplane::unit {
namespace {

OptimizeOptions On(std::vector<BackendId> backends) {
  OptimizeOptions options;
  options.backends = std::move(backends);
  return options;
}

std::vector<std::vector<float>> AddReluInputs() { return {Pseudorandom(24, 1), Pseudorandom(24, 2)}; }

TEST_CASE("lifetime: unload, then runtime destruction, releases everything, the library goes last") {
  PluginTrace trace;
  {
    TestRuntime runtime({test_plugins::valid_a}, /*with_reference=*/false);
    const NetworkId id = Load(*runtime, MakeAddRelu(), On({"TestValidA"}));
    RunOnce(*runtime, id, AddReluInputs());
    runtime->UnloadNetwork(id);
    CHECK(trace.Count("acquire TestValidA") == trace.Count("release TestValidA"));
    CHECK(trace.IndexOf("context TestValidA AfterUnloadNetwork " + std::to_string(id)) >= 0);
    CHECK(trace.IndexOf("context TestValidA destroyed") == -1);
    CHECK(trace.IndexOf("unloaded TestValidA") == -1);
  }
  INFO(trace.Text());
  const auto lines = trace.Lines();
  REQUIRE_FALSE(lines.empty());
  CHECK(lines.back() == "unloaded TestValidA");
  CHECK(trace.Count("created TestValidA") == trace.Count("destroyed TestValidA"));
  CHECK(trace.Count("context TestValidA destroyed") == 1);
  CHECK(trace.IndexOf("context TestValidA destroyed") < trace.IndexOf("unloaded TestValidA"));
}

TEST_CASE("lifetime: destroying the runtime with a network still loaded unloads it first") {
  PluginTrace trace;
  {
    TestRuntime runtime({test_plugins::valid_a}, /*with_reference=*/false);
    const NetworkId id = Load(*runtime, MakeAddRelu(), On({"TestValidA"}));
    RunOnce(*runtime, id, AddReluInputs());
  }
  INFO(trace.Text());
  const long after_unload = trace.IndexOf("context TestValidA AfterUnloadNetwork 1");
  CHECK(trace.IndexOf("context TestValidA BeforeUnloadNetwork 1") >= 0);
  CHECK(after_unload >= 0);
  CHECK(after_unload < trace.IndexOf("context TestValidA destroyed"));
  CHECK(trace.Count("acquire TestValidA") == trace.Count("release TestValidA"));
  CHECK(trace.Count("created TestValidA") == trace.Count("destroyed TestValidA"));
  CHECK(trace.Lines().back() == "unloaded TestValidA");
}

TEST_CASE("lifetime: a context that outlives UnloadNetwork throws on Run, loading again gives a new id that works") {
  TestRuntime runtime({test_plugins::copy_only}, /*with_reference=*/false);
  const NetworkId id = Load(*runtime, MakeAddRelu(), On({"TestCopyOnly"}));
  auto before = runtime->CreateExecutionContext(id);
  const auto inputs = AddReluInputs();
  Run(*before, runtime->GetNetworkSignature(id), inputs);
  const NetworkSignature signature = runtime->GetNetworkSignature(id);
  runtime->UnloadNetwork(id);
  const Exception error = ThrowsException([&] { Run(*before, signature, inputs); });
  CHECK(error.code() == ErrorCode::kNotFound);
  CHECK(ContainsAll(error.what(), {"network " + std::to_string(id) + " was unloaded; load it again to run it"}));
  // Loading the same network again gives a new id that works.
  const NetworkId again = Load(*runtime, MakeAddRelu(), On({"TestCopyOnly"}));
  CHECK(again != id);
  CHECK(Compare(RunOnce(*runtime, again, inputs)[0], AddReluForward(inputs[0], inputs[1]), 0) == "");
}

TEST_CASE("lifetime: destroying the runtime while a context exists does not crash, the context then throws") {
  PluginTrace trace;
  const auto inputs = AddReluInputs();
  TestRuntime runtime({test_plugins::valid_a}, /*with_reference=*/false);
  const NetworkId id = Load(*runtime, MakeAddRelu(), On({"TestValidA"}));
  auto context = runtime->CreateExecutionContext(id);
  const NetworkSignature signature = runtime->GetNetworkSignature(id);
  CHECK(Compare(Run(*context, signature, inputs)[0], AddReluForward(inputs[0], inputs[1]), 0) == "");

  runtime.Destroy();
  INFO(trace.Text());
  CHECK(trace.IndexOf("context TestValidA AfterUnloadNetwork " + std::to_string(id)) >= 0);
  CHECK(trace.IndexOf("context TestValidA destroyed") >= 0);
  // The context still holds the plugin's tensor handles: its code stays mapped until the
  // context goes.
  CHECK(trace.IndexOf("unloaded TestValidA") == -1);
  const Exception error = ThrowsException([&] { Run(*context, signature, inputs); });
  CHECK(error.code() == ErrorCode::kNotFound);
  CHECK(ContainsAll(error.what(), {"was unloaded"}));
  CHECK(context->GetNetworkId() == id);

  context.reset();
  CHECK(trace.Lines().back() == "unloaded TestValidA");
  CHECK(trace.Count("created TestValidA") == trace.Count("destroyed TestValidA"));
}

}  // namespace
}  // namespace backplane::unit
