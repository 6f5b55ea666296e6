// The plain run: import, optimize, load, time, and optionally write outputs and a profile.
#pragma once

#include "command_line.hpp"
#include "run_report.hpp"

namespace backplane::sdk_run {

// Does everything a plain run asks for and reports it; the report's Status() says whether an
// --expected output or --max-latency-ms failed, or SIGINT stopped the runs (a partial report).
// show_progress: draw a progress line on stderr during the import, the load and the runs
// (stderr is a terminal, no --json). Throws ToolError with the exit code of the first failure
// (usage, bad model, bad input, runtime failure, cannot write).
RunReport RunModel(const CommandLine& command_line, bool show_progress);

}  // namespace backplane::sdk_run
