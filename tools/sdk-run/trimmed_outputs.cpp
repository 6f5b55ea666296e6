#include "trimmed_outputs.hpp"

#include <algorithm>

namespace backplane::sdk_run {

bool IsCountOutput(const std::string& name, const std::vector<onnx::TrimmedOutput>& trimmed) {
  return std::any_of(trimmed.begin(), trimmed.end(), [&](const onnx::TrimmedOutput& t) { return t.count == name; });
}

const onnx::TrimmedOutput* FindTrimmed(const std::string& name, const std::vector<onnx::TrimmedOutput>& trimmed) {
  const auto found =
      std::find_if(trimmed.begin(), trimmed.end(), [&](const onnx::TrimmedOutput& t) { return t.output == name; });
  return found == trimmed.end() ? nullptr : &*found;
}

std::vector<HostTensor> TrimOutputs(std::vector<HostTensor> outputs, const std::vector<onnx::TrimmedOutput>& trimmed) {
  if (trimmed.empty()) return outputs;
  const auto named = [&](const std::string& name) -> HostTensor& {
    return *std::find_if(outputs.begin(), outputs.end(), [&](const HostTensor& t) { return t.name == name; });
  };
  for (const onnx::TrimmedOutput& t : trimmed) {
    HostTensor& output = named(t.output);
    onnx::TrimOutput(t, output.info, output.data, named(t.count).data);
  }
  outputs.erase(std::remove_if(outputs.begin(), outputs.end(),
                               [&](const HostTensor& t) { return IsCountOutput(t.name, trimmed); }),
                outputs.end());
  return outputs;
}

}  // namespace backplane::sdk_run
