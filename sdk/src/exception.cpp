#include <backplane/exception.hpp>

namespace backplane {

const char* ToString(ErrorCode code) {
  switch (code) {
    case ErrorCode::kInvalidArgument: return "invalid_argument";
    case ErrorCode::kNotFound: return "not_found";
    case ErrorCode::kNoBackends: return "no_backends";
    case ErrorCode::kUnsupported: return "unsupported";
    case ErrorCode::kBackendFailure: return "backend_failure";
    case ErrorCode::kInternal: return "internal";
  }
  return "unknown";
}

Exception::Exception(ErrorCode code, const std::string& message)
    : std::runtime_error(message), code_(code) {}

Exception::~Exception() = default;

}  // namespace backplane
