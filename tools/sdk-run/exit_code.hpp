// sdk-run's exit codes: documented in docs/sdk-run.md and in --help. The BSD sysexits values
// where one fits, so scripts can tell a bad command line from a bad model from a failed run.
#pragma once

#include "tool_error.hpp"

#include <stdexcept>
#include <string>

namespace backplane::sdk_run {

enum class ExitCode : int {
  kOk = 0,
  kAboveTolerance = 1,   // --compare-backends or --expected: some output differs by more
                         // than --tolerance
  kAboveLatencyLimit = 2,  // --max-latency-ms: the highest reported percentile is above it
  kUsage = 64,           // bad command line (EX_USAGE)
  kBadModel = 65,        // model file missing, unreadable, malformed or unsupported (EX_DATAERR)
  kBadInput = 66,        // input data: .npy missing or malformed, wrong shape or type, unknown
                         // input name (EX_NOINPUT)
  kRuntimeFailure = 70,  // no backend, optimize/placement or load failed, a run failed, or an
                         // unexpected error (EX_SOFTWARE)
  kCannotWrite = 73,     // an --output-dir file, the --profile trace, the --report file or
                         // stdout could not be written (EX_CANTCREAT)
  kInterrupted = 130,    // SIGINT (Ctrl-C) during the runs: a partial report was printed
                         // (128 + SIGINT, what a shell reports for a job Ctrl-C ended)
};

// Stable names used in the JSON document: "ok", "above_tolerance", "above_latency_limit",
// "usage_error", "bad_model", "bad_input", "runtime_failure", "cannot_write", "interrupted".
const char* ToString(ExitCode code);

// An error that ends the run with `code`. what() is the whole message, without the "sdk-run:"
// prefix, and says what went wrong and where (file, option, input or layer).
using ToolError = tools::ToolError<ExitCode>;

}  // namespace backplane::sdk_run
