#include "exit_code.hpp"

namespace backplane::sdk_info {

const char* ToString(ExitCode code) {
  switch (code) {
    case ExitCode::kOk: return "ok";
    case ExitCode::kCandidatesRejected: return "candidates_rejected";
    case ExitCode::kNoBackends: return "no_backends";
    case ExitCode::kUsage: return "usage_error";
    case ExitCode::kBackendNotFound: return "backend_not_found";
    case ExitCode::kInternalError: return "internal_error";
    case ExitCode::kCannotWrite: return "cannot_write";
  }
  return "unknown";
}

}  // namespace backplane::sdk_info
