// --compare-backends A,B: the model on A alone and on B alone, with the same inputs.
#pragma once

#include "command_line.hpp"
#include "run_report.hpp"

namespace backplane::sdk_run {

// Loads the model twice, on A alone and on B alone (strict placement on each), runs each once
// with the same inputs and compares every output of A with B's (the reference). Throws
// ToolError with the exit code of the first failure; outputs above the tolerance are not an
// error here (CompareReport::Status says so). show_progress: a progress line on stderr during
// the import (PrepareModel).
CompareReport CompareBackends(const CommandLine& command_line, bool show_progress);

}  // namespace backplane::sdk_run
