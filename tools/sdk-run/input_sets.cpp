#include "input_sets.hpp"

#include "exit_code.hpp"
#include "input_data.hpp"

#include <backplane/exception.hpp>

namespace backplane::sdk_run {

std::vector<InputBinding> InputSet::Bindings() const {
  std::vector<InputBinding> bindings;
  for (const HostTensor& tensor : tensors) bindings.push_back({tensor.name, tensor.View()});
  return bindings;
}

InputSet ReadInputSet(const onnx::Session& session, std::size_t number,
                      const std::map<std::string, std::string>& files) {
  InputSet set;
  set.option = "--input-set " + std::to_string(number);
  const std::vector<std::string>& names = session.InputNames();
  for (const auto& [name, file] : files) RequireTensorName(set.option, name, file, names, "input");
  std::string all;
  for (const std::string& name : names) all += (all.empty() ? "" : ", ") + name;
  for (const std::string& name : names) {
    if (!files.count(name)) {
      throw ToolError(ExitCode::kBadInput, set.option + ": no file for input " + name +
                                               " (each set gives every input of the model: " + all + ")");
    }
  }
  for (const std::string& name : names) {
    const std::string& file = files.at(name);
    NpyArray array = ReadNpyFile(set.option, name, file);
    const TensorInfo info{array.shape, array.type};
    if (array.data.size() != info.NumBytes()) {
      throw ToolError(ExitCode::kBadInput, set.option + " " + name + "=" + file + ": the file holds " +
                                               std::to_string(array.data.size()) + " bytes of data, " +
                                               Describe(info) + " needs " + std::to_string(info.NumBytes()));
    }
    set.tensors.push_back({name, info, std::move(array.data)});
    set.files.push_back(file);
  }
  try {
    session.CheckInputs(set.Bindings());
  } catch (const Exception& error) {
    std::string given;
    for (std::size_t i = 0; i < names.size(); ++i) {
      given += (i ? ", " : "") + names[i] + "=" + set.files[i] + " " + Describe(set.tensors[i].info);
    }
    throw ToolError(ExitCode::kBadInput, set.option + " (" + given + "): " + error.what());
  }
  return set;
}

}  // namespace backplane::sdk_run
