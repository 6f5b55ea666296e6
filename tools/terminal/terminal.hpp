// Whether a tool may colour its output.
#pragma once

namespace backplane::tools {

// True when stdout is a terminal rather than a pipe or a file. The tools' only
// platform-specific call (isatty / _isatty). Thread-safe.
bool IsStdoutTerminal();

// True when stderr is a terminal (where progress lines may be drawn). Thread-safe.
bool IsStderrTerminal();

// Whether output to a stream may be coloured, given whether that stream is a terminal and the
// values of NO_COLOR and TERM (nullptr: unset): only on a terminal, when NO_COLOR is unset or
// empty (https://no-color.org) and TERM is not "dumb" (a terminal without escape sequences).
// Thread-safe.
bool ShouldColour(bool is_terminal, const char* no_color, const char* term);

// ShouldColour for stdout with this process's environment.
bool ShouldColourStdout();

}  // namespace backplane::tools
