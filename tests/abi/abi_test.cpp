// The plugin boundary is C (issue 13): plugins that share nothing with the runtime but
// backend_c_api.h load, place layers and run.
#include "discovery_records.hpp"
#include "test_folder.hpp"
#include "test_networks.hpp"
#include "test_runtime.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/runtime.hpp>
#include <backplane/version.hpp>

#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <string>

namespace backplane::unit {
namespace {

const TestPlugin kCPlugin{"c_current", BACKPLANE_TEST_C_PLUGIN, "TestC"};
const TestPlugin kFrozenCPlugin{"c_frozen", BACKPLANE_TEST_C_FROZEN_PLUGIN, "TestCFrozen", kTestPluginVersion, "2.0"};
const TestPlugin kNewerCPlugin{"c_newer_minor", BACKPLANE_TEST_C_NEWER_PLUGIN, "TestCNewer"};
const TestPlugin kLibcxxPlugin{"libcxx", BACKPLANE_TEST_LIBCXX_PLUGIN, "TestLibcxx"};

std::string ReadBytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

OptimizeOptions On(const char* backend) {
  OptimizeOptions options;
  options.backends = {BackendId(backend)};
  options.strict = true;
  return options;
}

// relu(a + b) + bias on the backend named by `plugin`, checked against a naive computation.
void RunsAddRelu(const TestPlugin& plugin, int bias = 0) {
  std::map<BackendId, backend::BackendOptions> options;
  if (bias != 0) options[BackendId(plugin.id)] = {{"bias", std::to_string(bias)}};
  TestRuntime runtime({plugin}, /*with_reference=*/false, options);
  const auto a = Pseudorandom(24, 1), b = Pseudorandom(24, 2);
  const auto y = RunNetwork(*runtime, MakeAddRelu(), On(plugin.id), {a, b}, [&](const OptimizedNetwork& network) {
    CHECK(PlacementOf(network, "add").backend == BackendId(plugin.id));
    CHECK(PlacementOf(network, "relu").backend == BackendId(plugin.id));
  });
  auto expected = AddReluForward(a, b);
  for (auto& value : expected) value += bias;
  CHECK(Compare(y.at(0), expected, bias == 0 ? 0 : 1e-6) == "");  // + bias rounds in f32
}

// What the steps of relu(a + b) on `plugin` say runs them, from a profiled run.
std::vector<std::string> Implementations(const TestPlugin& plugin) {
  TestRuntime runtime({plugin}, /*with_reference=*/false);
  const NetworkId id = runtime->LoadNetwork(runtime->Optimize(MakeAddRelu(), On(plugin.id)));
  ExecutionOptions profiled;
  profiled.profiling = true;
  auto context = runtime->CreateExecutionContext(id, profiled);
  Run(*context, runtime->GetNetworkSignature(id), {Pseudorandom(24, 1), Pseudorandom(24, 2)});
  std::vector<std::string> implementations;
  for (const ProfiledStepDetail& detail : context->GetProfiledStepDetails()) {
    implementations.push_back(detail.implementation);
  }
  REQUIRE(implementations.size() == context->GetProfiledSteps().size());
  return implementations;
}

TEST_CASE("a backend written in C99 (no C++ runtime) registers and runs a network") {
  const std::string bytes = ReadBytes(kCPlugin.path);
  CHECK(bytes.find("libstdc++") == std::string::npos);
  RunsAddRelu(kCPlugin);

  SUBCASE("its declared option arrives, and its log lines reach the application's sink") {
    TestRuntime runtime({kCPlugin}, false, {{BackendId("TestC"), {{"bias", "3"}}}});
    CHECK(runtime.Log().Contains(LogLevel::kInfo, LogCategory::kPlugin, "TestC"));
    CHECK(runtime.Log().Contains(LogLevel::kInfo, LogCategory::kPlugin, "C backend context created"));
    const auto backends = runtime->GetBackends();
    REQUIRE(backends.size() == 1);
    CHECK(backends[0].api_version == kBackendApiVersion);
    RunsAddRelu(kCPlugin, 3);
  }
  SUBCASE("a layer it refuses goes elsewhere with its reason in the placement report") {
    TestRuntime runtime({kCPlugin}, true);
    Network network;
    const auto x = network.AddInput("x", kAddReluInfo);
    ActivationDescriptor sigmoid;
    sigmoid.function = ActivationFunction::kSigmoid;
    network.AddOutput("y", network.Add(sigmoid, {x}, "sigmoid"));
    OptimizeOptions options;
    options.backends = {BackendId("TestC"), kCpuRef};
    const auto optimized = runtime->Optimize(network, options);
    CHECK(PlacementOf(optimized, "sigmoid").backend == kCpuRef);
  }
}

TEST_CASE("old layout: a plugin compiled against the frozen 2.0 header loads and runs") {
  RunsAddRelu(kFrozenCPlugin);
  RunsAddRelu(kFrozenCPlugin, 2);
}

TEST_CASE("2.1: what a C plugin says runs its workloads reaches the profile, a 2.0 plugin says nothing") {
  CHECK(Implementations(kCPlugin) == std::vector<std::string>{"C99 loop", "C99 loop"});
  CHECK(Implementations(kFrozenCPlugin) == std::vector<std::string>{"", ""});
}

TEST_CASE("a plugin built for a newer minor of the Backend API is refused, naming both versions") {
  TestFolder folder;
  folder.AddPluginWithManifest(kNewerCPlugin, kTestPluginVendor, "CNewer");
  folder.AddPluginWithManifest(kCPlugin, kTestPluginVendor, "C");
  RuntimeOptions options;
  options.backend_paths = {folder.path().string()};
  options.enable_static_backends = false;
  const auto runtime = Runtime::Create(options);
  const DiscoveryReport& report = runtime->GetDiscoveryReport();
  INFO(Describe(report));
  const std::string newer = ToString(BackendApiVersion{kBackendApiVersion.major, kBackendApiVersion.minor + 1});
  bool refused = false;
  for (const auto& record : report.records) {
    if (record.library_path.find("CNewer") == std::string::npos) continue;
    refused = record.verdict == Verdict::kRejected && record.code == ReasonCode::kApiVersionIncompatible &&
              ContainsAll(record.message, {newer, ToString(kBackendApiVersion)});
  }
  CHECK(refused);
  REQUIRE(runtime->GetBackends().size() == 1);
  CHECK(runtime->GetBackends()[0].id == BackendId("TestC"));
}

TEST_CASE("a C++ backend built with clang++ -stdlib=libc++ runs inside this runtime") {
  if (std::string(kLibcxxPlugin.path).empty()) {
    MESSAGE("skipped: this build has no clang++ with libc++ (or is sanitized)");
    return;
  }
  const std::string bytes = ReadBytes(kLibcxxPlugin.path);
  CHECK(bytes.find("libc++.so") != std::string::npos);
  CHECK(bytes.find("libstdc++.so") == std::string::npos);
  RunsAddRelu(kLibcxxPlugin);

  TestRuntime runtime({kLibcxxPlugin}, false);
  const auto backends = runtime->GetBackends();
  REQUIRE(backends.size() == 1);
  CHECK(backends[0].capabilities.values.at("BuiltWithLibcxx"));
  // A libc++ std::runtime_error thrown in Execute arrives as a backplane::Exception.
  const NetworkId id = Load(*runtime, MakeAddRelu(), On("TestLibcxx"));
  auto a = Pseudorandom(24, 1);
  a[0] = 42.0f;
  const Exception error = ThrowsException([&] { RunOnce(*runtime, id, {a, Pseudorandom(24, 2)}); });
  CHECK(ContainsAll(error.what(), {"TestLibcxx", "an input starting with 42 is refused"}));
}

}  // namespace
}  // namespace backplane::unit
