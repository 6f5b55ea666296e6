// Whether a tool may colour its output.
#pragma once

namespace backplane::tools {

// True when stdout is a terminal rather than a pipe or a file. The tools' only
// platform-specific call (isatty / _isatty). Thread-safe.
bool IsStdoutTerminal();

// True when stdout is a terminal and NO_COLOR is unset or empty (https://no-color.org).
bool ShouldColourStdout();

}  // namespace backplane::tools
