#include "model_check.hpp"

#include <backplane/runtime.hpp>

#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

namespace backplane::onnx::testing {

namespace {

using Clock = std::chrono::steady_clock;

double Ms(Clock::time_point since) { return std::chrono::duration<double, std::milli>(Clock::now() - since).count(); }

}  // namespace

std::vector<float> Floats(const NpyArray& array) {
  REQUIRE(array.type == DataType::kFloat32);
  std::vector<float> values(array.data.size() / sizeof(float));
  if (!values.empty()) std::memcpy(values.data(), array.data.data(), values.size() * sizeof(float));
  return values;
}

std::string DataPath(const std::string& file) { return std::string(BACKPLANE_ONNX_TEST_DATA) + "/" + file; }

double MaxRelativeError(const NpyArray& expected, const NpyArray& actual) {
  REQUIRE(expected.type == DataType::kFloat32);
  REQUIRE(actual.type == DataType::kFloat32);
  REQUIRE(ToString(expected.shape) == ToString(actual.shape));
  const auto e = Floats(expected);
  const auto a = Floats(actual);
  double largest = 0, worst = 0;
  for (std::size_t i = 0; i < e.size(); ++i) {
    largest = std::max(largest, std::fabs(static_cast<double>(e[i])));
    const double difference = std::fabs(static_cast<double>(a[i]) - static_cast<double>(e[i]));
    worst = std::max(worst, std::isnan(difference) ? INFINITY : difference);
  }
  if (largest == 0) return worst;
  return worst / largest;
}

ModelRun RunImportedOnCpuRef(const ImportedModel& model, const std::map<std::string, NpyArray>& inputs) {
  ModelRun run;
  auto runtime = Runtime::Create();
  REQUIRE(runtime->HasBackend("CpuRef"));
  auto start = Clock::now();
  OptimizeOptions optimize;
  optimize.backends = {"CpuRef"};
  const NetworkId id = runtime->LoadNetwork(runtime->Optimize(model.network, optimize));
  run.load_ms = Ms(start);
  const NetworkSignature signature = runtime->GetNetworkSignature(id);

  std::vector<InputBinding> input_bindings;
  for (const auto& [name, array] : inputs) {
    input_bindings.push_back({name, ConstTensorView{TensorInfo{array.shape, array.type}, array.data.data()}});
  }
  std::vector<OutputBinding> output_bindings;
  for (const auto& output : signature.outputs) {
    NpyArray& array = run.outputs[output.name];
    array.type = output.info.type;
    array.shape = output.info.shape;
    array.data.resize(output.info.NumBytes());
  }
  for (auto& [name, array] : run.outputs) {
    output_bindings.push_back({name, TensorView{TensorInfo{array.shape, array.type}, array.data.data()}});
  }
  auto context = runtime->CreateExecutionContext(id);
  start = Clock::now();
  context->Run(input_bindings, output_bindings);
  run.run_ms = Ms(start);
  context.reset();
  runtime->UnloadNetwork(id);
  return run;
}

ModelRun RunOnCpuRef(const std::string& folder, const std::string& stem, const ImportOptions& options,
                     const std::string& data_stem) {
  const auto start = Clock::now();
  ImportedModel model = ImportModel(folder + "/" + stem + ".onnx", options);
  const double import_ms = Ms(start);
  std::map<std::string, NpyArray> inputs;
  for (const auto& name : model.inputs) {
    inputs[name] = ReadNpy(folder + "/" + (data_stem.empty() ? stem : data_stem) + "." + name + ".npy");
  }
  ModelRun run = RunImportedOnCpuRef(model, inputs);
  run.import_ms = import_ms;
  return run;
}

ModelRun CheckMatchesExpected(const std::string& folder, const std::string& stem, const ImportOptions& options,
                              double tolerance, const std::string& expected_stem) {
  ModelRun run = RunOnCpuRef(folder, stem, options, expected_stem);
  const std::string expected_prefix = folder + "/" + (expected_stem.empty() ? stem : expected_stem) + ".";
  REQUIRE_FALSE(run.outputs.empty());
  for (const auto& [name, actual] : run.outputs) {
    INFO(stem << " output " << name);
    const NpyArray expected = ReadNpy(expected_prefix + name + ".npy");
    const double error = MaxRelativeError(expected, actual);
    CHECK(error <= tolerance);
  }
  return run;
}

TempFile::TempFile(const std::string& name, const std::string& content) {
  std::random_device random;
  const std::filesystem::path folder =
      std::filesystem::temp_directory_path() / ("backplane_onnx_test_" + std::to_string(random()));
  std::filesystem::create_directories(folder);
  folder_ = folder.string();
  path_ = (folder / name).string();
  std::ofstream(path_, std::ios::binary).write(content.data(), static_cast<std::streamsize>(content.size()));
}

TempFile::~TempFile() {
  std::error_code ignored;
  std::filesystem::remove_all(folder_, ignored);
}

}  // namespace backplane::onnx::testing
