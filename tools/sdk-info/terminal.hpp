// Whether sdk-info may colour its output.
#pragma once

namespace backplane::sdk_info {

// True when stdout is a terminal rather than a pipe or a file. This is sdk-info's only
// platform-specific call (isatty / _isatty). Thread-safe.
bool IsStdoutTerminal();

// True when stdout is a terminal and NO_COLOR is unset or empty (https://no-color.org).
bool ShouldColourStdout();

}  // namespace backplane::sdk_info
