// sdk-run --json: one JSON document (format in kJsonFormatVersion; shape in docs/sdk-run.md).
#pragma once

#include "run_report.hpp"

#include <string>

namespace backplane::sdk_run {

// The document's format version. Adding a field bumps the minor; removing, renaming or
// changing the meaning of one bumps the major.
inline constexpr const char* kJsonFormatVersion = "1.3";

// "kind": "run". Pretty-printed, ending in a newline. Times in milliseconds.
std::string JsonReport(const RunReport& report);

// "kind": "sets" (--input-set). Pretty-printed, ending in a newline.
std::string JsonReport(const SetsReport& report);

// "kind": "compare". Pretty-printed, ending in a newline. An infinite error is written as the
// string "inf" (JSON has no infinity).
std::string JsonReport(const CompareReport& report);

}  // namespace backplane::sdk_run
