// The error every tool reports and exits with: a message for the user, an exit code for scripts.
#pragma once

#include <stdexcept>
#include <string>

namespace backplane::tools {

// Thrown by a tool's code for a failure the user caused or must fix; main() prints what() and
// exits with code(). ExitCode is the tool's own enum (each tool's exit_code.hpp). Value type.
template <typename ExitCode>
class ToolError : public std::runtime_error {
 public:
  ToolError(ExitCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ExitCode code() const noexcept { return code_; }

 private:
  ExitCode code_;
};

}  // namespace backplane::tools
