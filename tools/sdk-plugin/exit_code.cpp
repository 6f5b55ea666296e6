#include "exit_code.hpp"

namespace backplane::sdk_plugin {

const char* ToString(ExitCode code) {
  switch (code) {
    case ExitCode::kOk: return "ok";
    case ExitCode::kRejected: return "rejected";
    case ExitCode::kUsage: return "usage_error";
    case ExitCode::kInputMissing: return "input_missing";
    case ExitCode::kInternal: return "internal_error";
    case ExitCode::kCannotCreate: return "cannot_create";
    case ExitCode::kPermissionDenied: return "permission_denied";
  }
  return "unknown";
}

}  // namespace backplane::sdk_plugin
