#include "terminal.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>

#if defined(_WIN32)
#include <io.h>
#else
#include <unistd.h>
#endif

namespace backplane::tools {

namespace {

bool IsTerminal(std::FILE* stream) {
#if defined(_WIN32)
  return _isatty(_fileno(stream)) != 0;
#else
  return isatty(fileno(stream)) != 0;
#endif
}

}  // namespace

bool IsStdoutTerminal() { return IsTerminal(stdout); }

bool IsStderrTerminal() { return IsTerminal(stderr); }

bool ShouldColour(bool is_terminal, const char* no_color, const char* term) {
  if (no_color != nullptr && no_color[0] != '\0') return false;
  if (term != nullptr && std::strcmp(term, "dumb") == 0) return false;
  return is_terminal;
}

bool ShouldColourStdout() {
  return ShouldColour(IsStdoutTerminal(), std::getenv("NO_COLOR"), std::getenv("TERM"));
}

}  // namespace backplane::tools
