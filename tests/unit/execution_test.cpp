// Loading and running (issue 3, section 3): signatures, repeated runs of one context, backend
// context notifications around load and unload, memory managers, profiling and the Chrome
// trace export.
#include "plugin_trace.hpp"
#include "test_networks.hpp"
#include "test_plugins.hpp"
#include "test_runtime.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/runtime.hpp>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <map>
#include <optional>
#include <sstream>
#include <string>

namespace backplane::unit {
namespace {

OptimizeOptions On(std::vector<BackendId> backends) {
  OptimizeOptions options;
  options.backends = std::move(backends);
  return options;
}

// The trace lines that start with `prefix`, in order.
std::vector<std::string> LinesStartingWith(const PluginTrace& trace, const std::string& prefix) {
  std::vector<std::string> lines;
  for (const auto& line : trace.Lines()) {
    if (line.rfind(prefix, 0) == 0) lines.push_back(line);
  }
  return lines;
}

// Backend API 2.6: a backend's devices and availability are asked on first need, once per
// runtime, so a backend that takes no layer never initialises its device.
TEST_CASE("execution: devices and availability are asked only of the backends a runtime uses or describes, once") {
  PluginTrace trace;
  TestRuntime runtime({test_plugins::valid_a, test_plugins::valid_b}, /*with_reference=*/false);
  INFO(trace.Text());
  CHECK(trace.Count("created TestValidB") >= 1);  // registered: described without its devices
  CHECK(trace.Count("devices TestValidA") + trace.Count("devices TestValidB") == 0);
  CHECK(trace.Count("availability TestValidA") + trace.Count("availability TestValidB") == 0);

  const NetworkId id = Load(*runtime, MakeAddRelu(), On({"TestValidA"}));
  CHECK(runtime->GetNetworkSignature(id).outputs.size() == 1);
  CHECK(trace.Count("devices TestValidA") == 1);
  CHECK(trace.Count("availability TestValidA") == 1);
  CHECK(trace.Count("devices TestValidB") + trace.Count("availability TestValidB") == 0);

  const std::optional<BackendInfo> b = runtime->GetBackend(BackendId("TestValidB"));
  REQUIRE(b.has_value());
  CHECK(b->available);
  REQUIRE(b->devices.size() == 1);
  CHECK(b->devices[0].name == "Test host CPU (TestValidB)");
  CHECK_FALSE(runtime->GetBackend(BackendId("TestNobody")).has_value());
  for (const BackendInfo& backend : runtime->GetBackends()) CHECK(backend.devices.size() == 1);
  Load(*runtime, MakeAddRelu(), On({"TestValidB", "TestValidA"}));
  CHECK(trace.Count("devices TestValidA") == 1);  // once per runtime, however often asked
  CHECK(trace.Count("devices TestValidB") == 1);
  CHECK(trace.Count("availability TestValidB") == 1);
}

TEST_CASE("execution: the signature names the inputs and outputs, one context runs many times") {
  TestRuntime runtime({test_plugins::valid_a}, /*with_reference=*/false);
  const NetworkId id = Load(*runtime, MakeAddRelu(), On({"TestValidA"}));
  const NetworkSignature signature = runtime->GetNetworkSignature(id);
  REQUIRE(signature.inputs.size() == 2);
  CHECK(signature.inputs[0].name == "a");
  CHECK(signature.inputs[0].info == kAddReluInfo);
  CHECK(signature.inputs[1].name == "b");
  REQUIRE(signature.outputs.size() == 1);
  CHECK(signature.outputs[0].name == "y");
  CHECK(signature.outputs[0].info == kAddReluInfo);

  auto context = runtime->CreateExecutionContext(id);
  CHECK(context->GetNetworkId() == id);
  CHECK(context->GetProfile().empty());
  for (std::uint32_t run = 0; run < 5; ++run) {
    const auto a = Pseudorandom(24, 2 * run), b = Pseudorandom(24, 2 * run + 1);
    const auto y = Run(*context, signature, {a, b});
    CHECK_MESSAGE(Compare(y[0], AddReluForward(a, b), 0) == "", "run " << run);
  }
  CHECK(context->GetProfile().empty());  // profiling is off by default
  // Bindings may come in any order.
  const auto a = Pseudorandom(24, 100), b = Pseudorandom(24, 101);
  std::vector<float> y(24);
  context->Run({{"b", {kAddReluInfo, b.data()}}, {"a", {kAddReluInfo, a.data()}}},
               {{"y", {kAddReluInfo, y.data()}}});
  CHECK(Compare(y, AddReluForward(a, b), 0) == "");
  runtime->UnloadNetwork(id);
}

TEST_CASE("execution: backend contexts hear Before/After Load and Unload in order, memory managers follow") {
  PluginTrace trace;
  TestRuntime runtime({test_plugins::valid_a, test_plugins::valid_b});
  const NetworkId first = Load(*runtime, MakeAddRelu(), On({"TestValidA"}));
  CHECK(LinesStartingWith(trace, "context TestValidA") ==
        std::vector<std::string>{"context TestValidA BeforeLoadNetwork " + std::to_string(first),
                                 "context TestValidA AfterLoadNetwork " + std::to_string(first)});
  // The memory managers are acquired between BeforeLoad and AfterLoad.
  const long before_load = trace.IndexOf("context TestValidA BeforeLoadNetwork " + std::to_string(first));
  const long acquire = trace.IndexOf("acquire TestValidA");
  const long after_load = trace.IndexOf("context TestValidA AfterLoadNetwork " + std::to_string(first));
  CHECK(before_load < acquire);
  CHECK(acquire < after_load);
  CHECK(trace.Count("release TestValidA") == 0);

  const NetworkId second = Load(*runtime, MakeAddRelu(), On({"TestValidA"}));
  CHECK(second != first);
  RunOnce(*runtime, second, {Pseudorandom(24, 1), Pseudorandom(24, 2)});
  runtime->UnloadNetwork(first);
  runtime->UnloadNetwork(second);
  const std::string f = std::to_string(first), s = std::to_string(second);
  CHECK(LinesStartingWith(trace, "context TestValidA") ==
        std::vector<std::string>{"context TestValidA BeforeLoadNetwork " + f, "context TestValidA AfterLoadNetwork " + f,
                                 "context TestValidA BeforeLoadNetwork " + s, "context TestValidA AfterLoadNetwork " + s,
                                 "context TestValidA BeforeUnloadNetwork " + f, "context TestValidA AfterUnloadNetwork " + f,
                                 "context TestValidA BeforeUnloadNetwork " + s, "context TestValidA AfterUnloadNetwork " + s});
  // Every acquire has its release, each between its network's BeforeUnload and AfterUnload.
  CHECK(trace.Count("acquire TestValidA") == trace.Count("release TestValidA"));
  CHECK(trace.Count("acquire TestValidA") >= 2);
  const long release = trace.IndexOf("release TestValidA");
  CHECK(trace.IndexOf("context TestValidA BeforeUnloadNetwork " + f) < release);
  CHECK(release < trace.IndexOf("context TestValidA AfterUnloadNetwork " + f));
  // A backend no network runs on hears nothing.
  CHECK(LinesStartingWith(trace, "context TestValidB").empty());
}

TEST_CASE("execution: a backend context that refuses a load makes LoadNetwork fail, the next load works") {
  PluginTrace trace;
  TestRuntime runtime({test_plugins::valid_a}, /*with_reference=*/false,
                      {{"TestValidA", {{"RejectLoadOf", "1"}}}});
  const Exception error = ThrowsException([&] { Load(*runtime, MakeAddRelu(), On({"TestValidA"})); });
  CHECK(error.code() == ErrorCode::kBackendFailure);
  CHECK(ContainsAll(error.what(), {"backend TestValidA refused to load network 1"}));
  CHECK(LinesStartingWith(trace, "context TestValidA") ==
        std::vector<std::string>{"context TestValidA BeforeLoadNetwork 1"});
  CHECK(trace.Count("acquire TestValidA") == 0);
  CHECK(ThrowsException([&] { runtime->GetNetworkSignature(1); }).code() == ErrorCode::kNotFound);

  const NetworkId id = Load(*runtime, MakeAddRelu(), On({"TestValidA"}));
  CHECK(id == 2);
  const auto a = Pseudorandom(24, 1), b = Pseudorandom(24, 2);
  CHECK(Compare(RunOnce(*runtime, id, {a, b})[0], AddReluForward(a, b), 0) == "");
}

TEST_CASE("execution: profiling records one event per step with its layer and backend") {
  TestRuntime runtime({test_plugins::host_share}, /*with_reference=*/false);
  const NetworkId id = Load(*runtime, MakeAddRelu(), On({"TestHostShare"}));
  ExecutionOptions options;
  options.profiling = true;
  auto context = runtime->CreateExecutionContext(id, options);
  const auto signature = runtime->GetNetworkSignature(id);
  Run(*context, signature, {Pseudorandom(24, 1), Pseudorandom(24, 2)});
  // Host-sharing backend: inputs read in place, output written in place, no copy steps.
  const auto events = context->GetProfile();
  REQUIRE(events.size() == 2);
  CHECK(events[0].layer == "add");
  CHECK(events[0].backend == BackendId("TestHostShare"));
  CHECK(events[1].layer == "relu");
  CHECK(events[1].backend == BackendId("TestHostShare"));
  for (const auto& event : events) {
    CHECK(event.start_us >= 0);
    CHECK(event.duration_us >= 0);
  }
  CHECK(events[1].start_us >= events[0].start_us + events[0].duration_us);
  // Each run replaces the previous run's events.
  Run(*context, signature, {Pseudorandom(24, 3), Pseudorandom(24, 4)});
  CHECK(context->GetProfile().size() == 2);
}

TEST_CASE("execution: a split network's profile has every layer on its backend, plus the copy steps") {
  TestRuntime runtime({test_plugins::copy_only});
  const SmallCnn cnn;
  OptimizedNetwork optimized = runtime->Optimize(cnn.network(), On({"TestCopyOnly", kCpuRef}));
  std::map<std::string, BackendId> placed;
  for (const auto& placement : optimized.GetPlacement()) {
    if (!placement.backend.IsEmpty()) placed[placement.layer] = placement.backend;
  }
  const std::size_t copies = optimized.GetCopyCount();
  const NetworkId id = runtime->LoadNetwork(std::move(optimized));
  ExecutionOptions options;
  options.profiling = true;
  auto context = runtime->CreateExecutionContext(id, options);
  Run(*context, runtime->GetNetworkSignature(id), {cnn.MakeInput(1)});
  std::map<std::string, BackendId> seen;
  std::size_t other = 0;
  double last_start = -1;
  for (const auto& event : context->GetProfile()) {
    CHECK(event.start_us >= last_start);
    last_start = event.start_us;
    if (placed.count(event.layer)) {
      CHECK_MESSAGE(seen.count(event.layer) == 0, event.layer << " appears twice");
      seen[event.layer] = event.backend;
    } else {
      ++other;  // copy steps ("conv1->relu1") and the copy to the user's output
    }
  }
  CHECK(seen == placed);
  CHECK(other >= copies);
}

TEST_CASE("execution: WriteChromeTrace writes JSON with one complete event per profile event") {
  std::vector<ProfileEvent> events{{"conv1", "CpuRef", 0.0, 12.5},
                                   {"odd \"name\" with \\ and \ttab", "TestValidA", 12.5, 3.25},
                                   {"output 'y'", BackendId(), 15.75, 0.5}};
  std::ostringstream text;
  WriteChromeTrace(events, text);
  nlohmann::json trace;
  REQUIRE_NOTHROW(trace = nlohmann::json::parse(text.str()));
  REQUIRE(trace.contains("traceEvents"));
  const auto& list = trace["traceEvents"];
  REQUIRE(list.is_array());
  REQUIRE(list.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(list[i]["ph"] == "X");
    CHECK(list[i]["ts"].get<double>() == doctest::Approx(events[i].start_us));
    CHECK(list[i]["dur"].get<double>() == doctest::Approx(events[i].duration_us));
    CHECK(list[i].contains("pid"));
    CHECK(list[i].contains("tid"));
  }
  CHECK(list[0]["name"] == "conv1");
  CHECK(list[0]["cat"] == "CpuRef");
  CHECK(list[1]["cat"] == "TestValidA");
  CHECK(ContainsAll(list[1]["name"].get<std::string>(), {"odd \"name\" with \\ and"}));
  CHECK(list[2]["name"] == "output 'y'");

  std::ostringstream empty;
  WriteChromeTrace({}, empty);
  const auto none = nlohmann::json::parse(empty.str());
  CHECK(none["traceEvents"].empty());
}

TEST_CASE("execution: a profiled run of a real network exports a trace Chrome can read") {
  TestRuntime runtime({test_plugins::valid_a}, /*with_reference=*/false);
  const NetworkId id = Load(*runtime, MakeAddRelu(), On({"TestValidA"}));
  ExecutionOptions options;
  options.profiling = true;
  auto context = runtime->CreateExecutionContext(id, options);
  Run(*context, runtime->GetNetworkSignature(id), {Pseudorandom(24, 1), Pseudorandom(24, 2)});
  std::ostringstream text;
  WriteChromeTrace(context->GetProfile(), text);
  const auto trace = nlohmann::json::parse(text.str());
  std::vector<std::string> names;
  for (const auto& event : trace["traceEvents"]) names.push_back(event["name"]);
  CHECK(names.size() == context->GetProfile().size());
  CHECK(std::count(names.begin(), names.end(), "add") == 1);
  CHECK(std::count(names.begin(), names.end(), "relu") == 1);
}

TEST_CASE("execution: WriteChromeTrace writes a name that is not UTF-8 as U+FFFD") {
  std::ostringstream text;
  WriteChromeTrace({{std::string("conv\xff") + "1", "CpuRef", 0.0, 1.0}}, text);
  nlohmann::json trace;
  REQUIRE_NOTHROW(trace = nlohmann::json::parse(text.str()));
  CHECK(trace["traceEvents"][0]["name"] == "conv\xEF\xBF\xBD" "1");
}

TEST_CASE("execution: a profiled context describes its steps, and every event names its step") {
  TestRuntime runtime({test_plugins::copy_only});
  const SmallCnn cnn;
  OptimizedNetwork optimized = runtime->Optimize(cnn.network(), On({"TestCopyOnly", kCpuRef}));
  std::map<std::string, std::string> types;
  for (const auto& placement : optimized.GetPlacement()) types[placement.layer] = backend::ToString(placement.type);
  const NetworkId id = runtime->LoadNetwork(std::move(optimized));
  CHECK(runtime->CreateExecutionContext(id)->GetProfiledSteps().empty());  // profiling off
  ExecutionOptions options;
  options.profiling = true;
  auto context = runtime->CreateExecutionContext(id, options);
  const auto& steps = context->GetProfiledSteps();
  for (int run = 0; run < 2; ++run) {  // the second run reuses the first one's events
    Run(*context, runtime->GetNetworkSignature(id), {cnn.MakeInput(1)});
    const auto& events = context->GetProfile();
    REQUIRE(events.size() == steps.size());
    for (std::size_t i = 0; i < events.size(); ++i) {
      CHECK(events[i].step == i);
      CHECK(events[i].layer == steps[i].layer);
      CHECK(events[i].backend == steps[i].backend);
    }
  }
  std::size_t copies = 0;
  for (const ProfiledStep& step : steps) {
    INFO(step.layer);
    CHECK_FALSE(step.outputs.empty());
    CHECK_FALSE(step.inputs.empty());
    if (types.count(step.layer)) {
      CHECK(step.op == types[step.layer]);
    } else {
      CHECK((step.op == "Copy" || step.op == "Import"));
      CHECK(step.inputs.front() == step.outputs.front());
      ++copies;
    }
    if (step.op == "Convolution2d") CHECK(step.inputs.at(1).shape.Rank() == 4);  // the weights
  }
  CHECK(copies > 0);
  // Each workload's creation time at load; copies and imports have none.
  const auto& details = context->GetProfiledStepDetails();
  REQUIRE(details.size() == steps.size());
  double load_ms = 0;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    CHECK(details[i].load_ms >= 0);
    if (!types.count(steps[i].layer)) CHECK(details[i].load_ms == 0);
    load_ms += details[i].load_ms;
  }
  CHECK(load_ms > 0);
}

}  // namespace
}  // namespace backplane::unit
