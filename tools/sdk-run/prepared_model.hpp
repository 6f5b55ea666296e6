// The model and the data to run it with, as both modes (run, compare) start.
#pragma once

#include "command_line.hpp"
#include "host_tensor.hpp"
#include "input_data.hpp"
#include "model_import.hpp"
#include "run_report.hpp"

#include <vector>

namespace backplane::sdk_run {

struct PreparedModel {
  ImportResult imported;
  std::vector<HostTensor> inputs;  // one per network input, in the model's order
  ModelReport report;              // the model's part of the report (path, opset, inputs, ...)
};

// Imports --model with --input-shape and the --input files' shapes (ImportForRun) and makes the inputs (--input files, else random data
// from --seed). show_progress: an "importing FILE ... 1.4 s" line on stderr while the import
// takes more than a second (ProgressLine). Throws ToolError (kBadModel, kBadInput) as
// ImportForRun and MakeInputs do.
PreparedModel PrepareModel(Runtime& runtime, const CommandLine& command_line, bool show_progress);

}  // namespace backplane::sdk_run
