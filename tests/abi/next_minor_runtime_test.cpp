// The old-layout test (issue 13): this executable holds a copy of the runtime compiled against
// the NEXT minor version of backend_c_api.h (simulate_api_minor.cmake appends a function to
// BpBackendTable and a field to BpLayer, and raises BP_BACKEND_API_MINOR). A plugin compiled
// against the frozen 2.0 header must still register and run in it (the runtime hands it larger
// structs than it knows, and finds its tables shorter than the runtime's), and so must a plugin
// of the next minor.
#include "temp_folder.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/runtime.hpp>
#include <backplane/version.hpp>

#include <doctest/doctest.h>

#include <filesystem>
#include <string>
#include <vector>

namespace backplane {
namespace {

namespace fs = std::filesystem;

// A fresh folder (the tests' TempFolder) holding `plugins` under their naming-scheme names;
// removed at the end.
class PluginFolder : public test_support::TempFolder {
 public:
  explicit PluginFolder(const std::vector<std::pair<std::string, std::string>>& plugins) : TempFolder("next-minor") {
    for (const auto& [source, name] : plugins) fs::copy_file(source, path() / name);
  }
};

std::string Library(const std::string& name) { return "Test_" + name + "_backend" + BACKPLANE_TEST_MODULE_SUFFIX; }

TEST_CASE("a runtime of the next minor loads and runs a 2.0 plugin and a next-minor plugin") {
  // This executable is built against the simulated header.
  REQUIRE(kBackendApiVersion.minor == BACKPLANE_TEST_CURRENT_API_MINOR + 1);
  PluginFolder folder({{BACKPLANE_TEST_C_FROZEN_PLUGIN, Library("CFrozen")},
                       {BACKPLANE_TEST_C_NEXT_PLUGIN, Library("CNext")}});
  RuntimeOptions options;
  options.backend_paths = {folder.path().string()};
  options.enable_static_backends = false;
  const auto runtime = Runtime::Create(options);
  const auto backends = runtime->GetBackends();
  REQUIRE(backends.size() == 2);

  const TensorInfo info{{2, 3}, DataType::kFloat32};
  Network network;
  const auto a = network.AddInput("a", info);
  const auto b = network.AddInput("b", info);
  network.AddOutput("y", network.Add(ActivationDescriptor{}, {network.Add(ElementwiseBinaryDescriptor{}, {a, b}, "add")},
                                     "relu"));
  const std::vector<float> x{-3, -1, 0, 1, 2, 3}, z{1, 0.5f, -1, 1, -5, 0};
  for (const auto& backend : backends) {
    INFO(backend.id.Get());
    CHECK(backend.api_version == (backend.id == BackendId("TestCFrozen") ? BackendApiVersion{2, 0} : kBackendApiVersion));
    OptimizeOptions optimize;
    optimize.backends = {backend.id};
    optimize.strict = true;
    const NetworkId id = runtime->LoadNetwork(runtime->Optimize(network, optimize));
    ExecutionOptions profiled;
    profiled.profiling = true;
    auto context = runtime->CreateExecutionContext(id, profiled);
    std::vector<float> y(6, -1.0f);
    context->Run({{"a", {info, x.data()}}, {"b", {info, z.data()}}}, {{"y", {info, y.data()}}});
    CHECK(y == std::vector<float>{0, 0, 0, 2, 0, 3});
    // 2.1's workload info: the next-minor plugin has it, the 2.0 plugin's table ends before it.
    for (const ProfiledStepDetail& detail : context->GetProfiledStepDetails()) {
      CHECK(detail.implementation == (backend.id == BackendId("TestCFrozen") ? "" : "C99 loop"));
    }
    runtime->UnloadNetwork(id);
  }
}

}  // namespace
}  // namespace backplane
