// sdk-info's exit codes: documented in docs/sdk-info.md and in --help.
#pragma once

#include "tool_error.hpp"

#include <stdexcept>
#include <string>

namespace backplane::sdk_info {

enum class ExitCode : int {
  kOk = 0,                  // at least one backend registered, no candidate rejected
  kCandidatesRejected = 1,  // at least one backend registered, some candidates rejected;
                            // with --validate-manifest: some manifest is invalid
  kNoBackends = 2,          // no backend registered at all (checked before rejections)
  kUsage = 64,              // bad command line (BSD EX_USAGE)
  kBackendNotFound = 66,    // --backend ID: no registered backend has that id (BSD EX_NOINPUT)
  kInternalError = 70,      // the runtime failed on a broken invariant (BSD EX_SOFTWARE)
  kCannotWrite = 73,        // the report could not be written to --output FILE or stdout
                            // (BSD EX_CANTCREAT)
};

// Stable names used in the JSON documents: "ok", "candidates_rejected", "no_backends",
// "usage_error", "backend_not_found", "internal_error", "cannot_write".
const char* ToString(ExitCode code);

// An error that ends the run with `code`. what() is the whole message, without the "sdk-info:"
// prefix, and names the file, option or backend id involved.
using ToolError = tools::ToolError<ExitCode>;

}  // namespace backplane::sdk_info
