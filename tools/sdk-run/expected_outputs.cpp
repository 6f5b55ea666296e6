#include "expected_outputs.hpp"

#include "input_data.hpp"
#include "trimmed_outputs.hpp"

namespace backplane::sdk_run {

std::vector<ExpectedTensor> ReadExpectedOutputs(const std::map<std::string, std::string>& files,
                                                const NetworkSignature& signature,
                                                const std::string& option,
                                                const std::vector<onnx::TrimmedOutput>& trimmed) {
  std::vector<std::string> names;
  for (const TensorSignature& output : signature.outputs) {
    if (!IsCountOutput(output.name, trimmed)) names.push_back(output.name);
  }
  for (const auto& [name, file] : files) RequireTensorName(option, name, file, names, "output");
  std::vector<ExpectedTensor> expected;
  for (const TensorSignature& output : signature.outputs) {
    const auto file = files.find(output.name);
    if (file == files.end()) continue;
    if (const onnx::TrimmedOutput* bounded = FindTrimmed(output.name, trimmed)) {
      expected.push_back(
          {file->second, ReadTensorFile(option, output.name, file->second, output.info, "output", bounded->axis)});
      continue;
    }
    expected.push_back(
        {file->second, ReadTensorFile(option, output.name, file->second, output.info, "output")});
  }
  return expected;
}

std::vector<ExpectedOutput> CompareWithExpected(const std::vector<HostTensor>& outputs,
                                                const std::vector<ExpectedTensor>& expected,
                                                double tolerance) {
  std::vector<ExpectedOutput> compared;
  for (const ExpectedTensor& reference : expected) {
    for (const HostTensor& output : outputs) {
      if (output.name != reference.tensor.name) continue;
      compared.push_back({reference.file, CompareOutput(output, reference.tensor, tolerance)});
    }
  }
  return compared;
}

}  // namespace backplane::sdk_run
