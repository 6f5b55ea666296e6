// Every committed model (tests/data, made by generate_models.py there) through the built sdk-run
// with one backend list, e.g. "CpuOneDnn,CpuRef": each model must run, its outputs must match
// the expected .npy files within 1e-4 relative, and the first backend of the list must have
// run at least one layer of the models where it supports something.
//
// The backend list comes from the environment variable BACKPLANE_E2E_BACKENDS (ctest registers
// this executable once per bundled backend, see CMakeLists.txt), so one source covers every
// backend the build has.
#include "child_process.hpp"
#include "temp_folder.hpp"
#include "tool_output.hpp"

#include <backplane/npy.hpp>
#include <backplane/onnx_importer.hpp>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

namespace backplane::e2e {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kSdkRun = BACKPLANE_E2E_SDK_RUN;
const fs::path kData = BACKPLANE_E2E_TEST_DATA;
const fs::path kBackendDir = BACKPLANE_E2E_BACKEND_DIR;

std::string Backends() {
  const char* value = std::getenv("BACKPLANE_E2E_BACKENDS");
  return value && *value ? value : "CpuRef";
}

std::string FirstBackend() {
  const std::string backends = Backends();
  return backends.substr(0, backends.find(','));
}

// max |actual - expected| / max |expected|; f32 only.
double MaxRelativeError(const NpyArray& expected, const NpyArray& actual) {
  const auto* e = reinterpret_cast<const float*>(expected.data.data());
  const auto* a = reinterpret_cast<const float*>(actual.data.data());
  const std::size_t count = expected.data.size() / sizeof(float);
  double largest = 0, difference = 0;
  for (std::size_t i = 0; i < count; ++i) {
    largest = std::max(largest, std::fabs(double(e[i])));
    const double d = std::fabs(double(a[i]) - double(e[i]));
    difference = std::isnan(d) ? INFINITY : std::max(difference, d);
  }
  return largest == 0 ? difference : difference / largest;
}

// The committed models that run as they are, with the input shapes the dynamic ones need.
struct CommittedModel {
  std::string stem;
  std::vector<std::string> input_shapes;  // "NAME=D,D,..." for --input-shape
};

std::vector<CommittedModel> CommittedModels() {
  std::vector<CommittedModel> models;
  for (const auto& entry : fs::directory_iterator(kData)) {
    if (entry.path().extension() != ".onnx") continue;
    const std::string stem = entry.path().stem().string();
    if (stem.rfind("bad_", 0) == 0) continue;  // made not to import
    if (stem == "mlp_dynamic") continue;       // mlp with a symbolic batch: its data is mlp's
    if (stem == "bert_dynamic") continue;      // two data sets of other shapes: sdk_run_test runs them
    models.push_back({stem, {}});
    if (stem == "shape_subgraph") models.back().input_shapes = {"input=2,3,4"};
  }
  std::sort(models.begin(), models.end(), [](const auto& a, const auto& b) { return a.stem < b.stem; });
  return models;
}

// Runs `model` and checks its outputs; returns how many layers ran on the first backend.
std::size_t CheckModel(const CommittedModel& model) {
  INFO("model " << model.stem << " on " << Backends());
  onnx::ImportOptions options;
  for (const auto& shape : model.input_shapes) {
    const auto equals = shape.find('=');
    auto& dims = options.input_shapes[shape.substr(0, equals)];
    std::string rest = shape.substr(equals + 1);
    for (std::size_t at = 0; at <= rest.size();) {
      const std::size_t comma = std::min(rest.find(',', at), rest.size());
      dims.push_back(std::stoll(rest.substr(at, comma - at)));
      at = comma + 1;
    }
  }
  const auto imported = onnx::ImportModel((kData / (model.stem + ".onnx")).string(), options);

  const test_support::TempFolder out("backplane_committed_models");
  std::vector<std::string> arguments{"--model", (kData / (model.stem + ".onnx")).string(), "--backends", Backends(),
                                     "--iterations", "1", "--warmup", "0", "--json",
                                     "--output-dir", out.path().string()};
  for (const auto& input : imported.inputs) {
    arguments.push_back("--input");
    arguments.push_back(input + "=" + (kData / (model.stem + "." + input + ".npy")).string());
  }
  for (const auto& shape : model.input_shapes) {
    arguments.push_back("--input-shape");
    arguments.push_back(shape);
  }
  const ScopedEnvironmentVariable paths("BACKPLANE_BACKEND_PATHS", kBackendDir.string());
  const ProcessResult result = RunProcess(kSdkRun, arguments);
  INFO("sdk-run " << json(arguments).dump() << " exited " << result.exit_code << "\nstdout:\n"
                  << result.out << "\nstderr:\n" << result.err);
  CHECK(result.exit_code == 0);
  if (result.exit_code != 0) return 0;
  const json report = ParseJson(result);

  for (const auto& output : report.at("outputs")) {
    const std::string name = output.at("name");
    INFO("output " << name);
    const NpyArray expected = ReadNpy((kData / (model.stem + "." + name + ".npy")).string());
    const NpyArray actual = ReadNpy(output.at("file").get<std::string>());
    CHECK(actual.shape == expected.shape);
    if (actual.shape == expected.shape) CHECK(MaxRelativeError(expected, actual) <= 1e-4);
  }
  const auto& per_backend = report.at("layers_per_backend");
  MESSAGE(model.stem << ": " << per_backend.dump());
  return per_backend.value(FirstBackend(), std::size_t{0});
}

}  // namespace

TEST_CASE("every committed model runs and matches its expected outputs") {
  const auto models = CommittedModels();
  REQUIRE(models.size() >= 17);  // the 17 of tests/data/README.md
  std::size_t layers_on_first = 0;
  for (const auto& model : models) layers_on_first += CheckModel(model);
  INFO("the first backend, " << FirstBackend() << ", ran no layer of any model");
  CHECK(layers_on_first > 0);
}

}  // namespace backplane::e2e
