// Where sdk-info's report goes: stdout, or the file given with --output.
#pragma once

#include <string>

namespace backplane::sdk_info {

// Writes `report` to `file` (created or truncated, written byte for byte, so the file holds what
// stdout would have), or to stdout when `file` is empty. Throws ToolError (kCannotWrite) naming
// the file, or stdout, with the system's reason when the report cannot be written whole; a file
// that failed part-way is left as it is. Not thread-safe (stdout).
void WriteReport(const std::string& report, const std::string& file);

}  // namespace backplane::sdk_info
