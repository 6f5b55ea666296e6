#include "bindings.hpp"

#include "exit_code.hpp"

namespace backplane::sdk_run {

Bindings MakeBindings(const NetworkSignature& signature, const std::vector<HostTensor>& inputs) {
  Bindings bindings;
  for (const TensorSignature& expected : signature.inputs) {
    const HostTensor* found = nullptr;
    for (const HostTensor& input : inputs) {
      if (input.name == expected.name) found = &input;
    }
    if (found == nullptr) {
      throw ToolError(ExitCode::kBadInput, "no data for input " + expected.name + " (" +
                                               Describe(expected.info) + ")");
    }
    if (found->info != expected.info) {
      throw ToolError(ExitCode::kBadInput, "input " + expected.name + ": the data is " +
                                               Describe(found->info) + ", the loaded network expects " +
                                               Describe(expected.info));
    }
    bindings.inputs.push_back({expected.name, found->View()});
  }
  if (inputs.size() != signature.inputs.size()) {
    for (const HostTensor& input : inputs) {
      bool known = false;
      for (const TensorSignature& expected : signature.inputs) known |= expected.name == input.name;
      if (!known) throw ToolError(ExitCode::kBadInput, "the network has no input " + input.name);
    }
  }
  bindings.output_tensors.reserve(signature.outputs.size());
  for (const TensorSignature& output : signature.outputs) {
    bindings.output_tensors.push_back(HostTensor::Zeros(output.name, output.info));
  }
  for (HostTensor& output : bindings.output_tensors) {
    bindings.outputs.push_back({output.name, output.MutableView()});
  }
  return bindings;
}

}  // namespace backplane::sdk_run
