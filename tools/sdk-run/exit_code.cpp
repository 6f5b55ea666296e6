#include "exit_code.hpp"

namespace backplane::sdk_run {

const char* ToString(ExitCode code) {
  switch (code) {
    case ExitCode::kOk: return "ok";
    case ExitCode::kAboveTolerance: return "above_tolerance";
    case ExitCode::kAboveLatencyLimit: return "above_latency_limit";
    case ExitCode::kUsage: return "usage_error";
    case ExitCode::kBadModel: return "bad_model";
    case ExitCode::kBadInput: return "bad_input";
    case ExitCode::kRuntimeFailure: return "runtime_failure";
    case ExitCode::kCannotWrite: return "cannot_write";
    case ExitCode::kInterrupted: return "interrupted";
  }
  return "unknown";
}

}  // namespace backplane::sdk_run
