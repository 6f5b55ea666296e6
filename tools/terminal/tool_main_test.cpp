// ToolMain: a tool's exit code passes through; an exception that escapes the tool becomes
// "<tool>: unexpected error: <what>" on stderr and the tool's failure code.
#include "tool_main.hpp"

#include <doctest/doctest.h>

#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>

namespace backplane::tools {
namespace {

// What ToolMain wrote to std::cerr while it ran.
class CapturedStderr {
 public:
  CapturedStderr() : previous_(std::cerr.rdbuf(text_.rdbuf())) {}
  ~CapturedStderr() { std::cerr.rdbuf(previous_); }
  std::string Text() const { return text_.str(); }

 private:
  std::ostringstream text_;
  std::streambuf* previous_;
};

// Exits with 10 + the number of arguments after the program name, when the first is "tool".
int CountArguments(int argc, const char* const argv[]) {
  return argc >= 1 && std::string(argv[0]) == "tool" && argv[argc] == nullptr ? 10 + argc - 1 : 1;
}
int Throws(int, const char* const[]) { throw std::runtime_error("no memory for the report"); }
int ThrowsAnInt(int, const char* const[]) { throw 7; }

TEST_CASE("tool main: the tool's exit code, its arguments as given (null-terminated)") {
  char name[] = "tool", first[] = "--json", second[] = "model.onnx";
  char* argv[] = {name, first, second, nullptr};
  const CapturedStderr err;
  CHECK(ToolMain("sdk-test", 70, 3, argv, CountArguments) == 12);
  CHECK(err.Text().empty());
}

TEST_CASE("tool main: an exception escaping the tool is its failure, said on stderr") {
  char name[] = "tool";
  char* argv[] = {name, nullptr};
  {
    const CapturedStderr err;
    CHECK(ToolMain("sdk-test", 70, 1, argv, Throws) == 70);
    CHECK(err.Text() == "sdk-test: unexpected error: no memory for the report\n");
  }
  const CapturedStderr err;
  CHECK(ToolMain("sdk-other", 3, 1, argv, ThrowsAnInt) == 3);
  CHECK(err.Text() == "sdk-other: unexpected error: an exception that is not a std::exception\n");
}

}  // namespace
}  // namespace backplane::tools
