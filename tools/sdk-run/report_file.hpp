// --report FILE: the JSON document also written to a file.
#pragma once

#include <string>

namespace backplane::sdk_run {

// Checks, before anything runs, that `path` can be written: opens it for appending (which
// creates it) and removes it again if it did not exist, so an existing file is left as it was
// until WriteReportFile. Throws ToolError (kCannotWrite) naming the path and the reason.
void CheckReportPath(const std::string& path);

// Writes `document` to `path`, replacing the file. Throws ToolError (kCannotWrite) naming it.
void WriteReportFile(const std::string& path, const std::string& document);

}  // namespace backplane::sdk_run
