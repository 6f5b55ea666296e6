// sdk-info's exit codes: documented in docs/sdk-info.md and in --help.
#pragma once

namespace backplane::sdk_info {

enum class ExitCode : int {
  kOk = 0,                  // at least one backend registered, no candidate rejected
  kCandidatesRejected = 1,  // at least one backend registered, some candidates rejected;
                            // with --validate-manifest: some manifest is invalid
  kNoBackends = 2,          // no backend registered at all (checked before rejections)
  kUsage = 64,              // bad command line (BSD EX_USAGE); the message is on stderr
  kInternalError = 70,      // the runtime failed on a broken invariant (BSD EX_SOFTWARE)
};

// Stable names used in the JSON document: "ok", "candidates_rejected", "no_backends",
// "usage_error", "internal_error".
const char* ToString(ExitCode code);

}  // namespace backplane::sdk_info
