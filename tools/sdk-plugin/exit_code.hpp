// sdk-plugin's exit codes: documented in docs/sdk-plugin.md and in --help. The BSD sysexits
// values where one fits, so scripts can tell a bad command line from a missing drop from a drop
// that was refused.
#pragma once

#include "tool_error.hpp"

#include <stdexcept>
#include <string>

namespace backplane::sdk_plugin {

enum class ExitCode : int {
  kOk = 0,
  kRejected = 1,           // a drop, manifest or key was refused (invalid, unsigned under
                           // require, quarantined by the probe, ...), or a verification failed
  kUsage = 64,             // bad command line (EX_USAGE)
  kInputMissing = 66,      // no such drop, file, backend id or key (EX_NOINPUT)
  kInternal = 70,          // the runtime failed on a broken invariant, or an unexpected error
                           // (EX_SOFTWARE)
  kCannotCreate = 73,      // the destination exists (install without --force, keygen over an
                           // existing key) or cannot be written (EX_CANTCREAT)
  kPermissionDenied = 77,  // the file system refused access, e.g. --system without the right
                           // to write the system's folder (EX_NOPERM)
};

// Stable names used in the JSON document: "ok", "rejected", "usage_error", "input_missing",
// "internal_error", "cannot_create", "permission_denied".
const char* ToString(ExitCode code);

// An error that ends the command with `code`. what() is the whole message, without the
// "sdk-plugin:" prefix, and names the file, folder, id or option involved.
using ToolError = tools::ToolError<ExitCode>;

}  // namespace backplane::sdk_plugin
