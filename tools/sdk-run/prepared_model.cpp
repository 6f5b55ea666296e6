#include "prepared_model.hpp"

#include "progress_line.hpp"

#include <backplane/path_text.hpp>

#include <filesystem>
#include <iostream>

namespace backplane::sdk_run {

PreparedModel PrepareModel(Runtime& runtime, const CommandLine& command_line, bool show_progress) {
  PreparedModel prepared;
  {
    const ProgressLine progress(
        std::cerr, "importing " + PathToUtf8(PathFromUtf8(command_line.model).filename()), 0,
        show_progress);
    prepared.imported =
        ImportForRun(runtime, command_line.model, command_line.input_shapes, command_line.input_files);
  }
  const onnx::ImportedModel& model = prepared.imported.model;
  std::map<std::string, std::string> files = command_line.input_files;
  for (const auto& name : model.value_inputs) files.erase(name);  // constants of the network now
  std::vector<NetworkInput> inputs = MakeInputs(model.network, model.inputs, files, command_line.seed);

  ModelReport& report = prepared.report;
  report.path = command_line.model;
  report.opset = model.opset;
  report.producer = model.producer;
  report.seed = command_line.seed;
  report.import_ms = prepared.imported.import_ms;
  for (NetworkInput& input : inputs) {
    report.inputs.push_back({input.tensor.name, input.tensor.info, input.file});
    prepared.inputs.push_back(std::move(input.tensor));
  }
  return prepared;
}

}  // namespace backplane::sdk_run
