#include "input_data.hpp"

#include "exit_code.hpp"

#include <backplane/npy.hpp>
#include <backplane/path_text.hpp>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <random>

namespace backplane::sdk_run {

namespace {

std::string JoinNames(const std::vector<std::string>& names) {
  std::string joined;
  for (const std::string& name : names) joined += (joined.empty() ? "" : ", ") + name;
  return joined;
}

// f32 uniform in [-1, 1): the top 24 bits of each 64-bit draw, so every value is exact.
void FillUniform(HostTensor& tensor, std::mt19937_64& generator) {
  const std::size_t count = static_cast<std::size_t>(tensor.info.shape.NumElements());
  for (std::size_t i = 0; i < count; ++i) {
    const float unit = static_cast<float>(generator() >> 40) * (1.0f / 16777216.0f);
    const float value = unit * 2.0f - 1.0f;
    std::memcpy(tensor.data.data() + i * sizeof value, &value, sizeof value);
  }
}

}  // namespace

void RequireTensorName(const std::string& option, const std::string& name, const std::string& file,
                       const std::vector<std::string>& names, const char* role) {
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    throw ToolError(ExitCode::kBadInput, option + " " + name + "=" + file + ": the model has no " +
                                             role + " " + name + " (its " + role + "s: " +
                                             JoinNames(names) + ")");
  }
}

NpyArray ReadNpyFile(const std::string& option, const std::string& name, const std::string& file) {
  if (!std::filesystem::is_regular_file(PathFromUtf8(file))) {
    throw ToolError(ExitCode::kBadInput,
                    option + " " + name + "=" + file +
                        (std::filesystem::exists(PathFromUtf8(file)) ? ": not a file" : ": no such file"));
  }
  NpyArray array;
  try {
    array = ReadNpy(file);
  } catch (const std::exception& error) {
    throw ToolError(ExitCode::kBadInput, option + " " + name + "=" + file + ": " + error.what());
  }
  return array;
}

HostTensor ReadTensorFile(const std::string& option, const std::string& name,
                          const std::string& file, const TensorInfo& expected_info, const char* role,
                          std::optional<std::size_t> bounded_axis) {
  NpyArray array = ReadNpyFile(option, name, file);
  const TensorInfo found{array.shape, array.type};
  TensorInfo expected = expected_info;
  if (bounded_axis && found.shape.Rank() == expected.shape.Rank() &&
      found.shape.Dims()[*bounded_axis] <= expected.shape.Dims()[*bounded_axis]) {
    std::vector<std::int64_t> dims = expected.shape.Dims();
    dims[*bounded_axis] = found.shape.Dims()[*bounded_axis];
    expected.shape = TensorShape(dims);
  }
  if (found != expected) {
    const char* what = found.type != expected.type ? "type" : "shape";
    throw ToolError(ExitCode::kBadInput,
                    option + " " + name + "=" + file + ": wrong " + what + ": the file holds " +
                        Describe(found) + ", the model's " + role + " " + name + " is " +
                        Describe(expected));
  }
  if (array.data.size() != expected.NumBytes()) {
    throw ToolError(ExitCode::kBadInput, option + " " + name + "=" + file + ": the file holds " +
                                             std::to_string(array.data.size()) + " bytes of data, " +
                                             Describe(found) + " needs " +
                                             std::to_string(expected.NumBytes()));
  }
  return HostTensor{name, expected, std::move(array.data)};
}

std::vector<NetworkInput> MakeInputs(const Network& network,
                                     const std::vector<std::string>& input_names,
                                     const std::map<std::string, std::string>& files,
                                     std::uint64_t seed) {
  for (const auto& [name, file] : files) RequireTensorName("--input", name, file, input_names, "input");
  std::mt19937_64 generator(seed);
  std::vector<NetworkInput> inputs;
  for (const std::string& name : input_names) {
    const TensorInfo info = network.GetOutputInfo({network.FindLayer(name), 0});
    const auto file = files.find(name);
    if (file != files.end()) {
      inputs.push_back({ReadTensorFile("--input", name, file->second, info, "input"), file->second});
      continue;
    }
    HostTensor tensor = HostTensor::Zeros(name, info);
    if (info.type == DataType::kFloat32) FillUniform(tensor, generator);
    inputs.push_back({std::move(tensor), {}});
  }
  return inputs;
}

}  // namespace backplane::sdk_run
