// The one exception family of the public API.
//
// Every error the SDK reports to an application is a backplane::Exception (or derived) with a
// code and an owned message that says what was wrong and where. Exceptions never cross a
// plugin's extern "C" boundary: plugin.hpp's entry points catch them.
#pragma once

#include <stdexcept>
#include <string>

namespace backplane {

enum class ErrorCode {
  kInvalidArgument,   // a bad option, path, name or value passed by the caller
  kNotFound,          // a named backend, layer, input or file does not exist
  kNoBackends,        // a runtime was asked for with no backend registered
  kUnsupported,       // a backend or the runtime cannot do what was asked
  kBackendFailure,    // a backend reported or caused a failure
  kInternal,          // a broken invariant inside the SDK (a bug)
};

// Stable lower-case name of a code ("invalid_argument"), for logs and JSON.
const char* ToString(ErrorCode code);

// Thread-safe to copy and read. what() returns the message.
class Exception : public std::runtime_error {
 public:
  Exception(ErrorCode code, const std::string& message);
  ~Exception() override;

  ErrorCode code() const noexcept { return code_; }

 private:
  ErrorCode code_;
};

}  // namespace backplane
