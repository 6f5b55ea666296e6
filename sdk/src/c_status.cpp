#include <backplane/backend/c_status.hpp>

#include <exception>
#include <new>
#include <utility>

namespace backplane::backend {

namespace {

// A status this library allocated: destroyed by Destroy, which deletes it here.
struct OwnedStatus {
  BpStatus status;  // first member: a BpStatus* is an OwnedStatus*
  std::string text;
};

void Destroy(BpStatus* status) { delete reinterpret_cast<OwnedStatus*>(status); }

// Returned when even the status cannot be allocated; destroying it does nothing.
BpStatus* OutOfMemoryStatus() noexcept {
  static const char kText[] = "out of memory";
  static BpStatus status{sizeof(BpStatus), BP_STATUS_OUT_OF_MEMORY, {kText, sizeof(kText) - 1}, [](BpStatus*) {}};
  return &status;
}

}  // namespace

std::uint32_t StatusCodeOf(ErrorCode code) noexcept {
  switch (code) {
    case ErrorCode::kInvalidArgument: return BP_STATUS_INVALID_ARGUMENT;
    case ErrorCode::kNotFound: return BP_STATUS_NOT_FOUND;
    case ErrorCode::kUnsupported: return BP_STATUS_UNSUPPORTED;
    case ErrorCode::kInternal: return BP_STATUS_INTERNAL;
    case ErrorCode::kNoBackends:
    case ErrorCode::kBackendFailure: break;
  }
  return BP_STATUS_BACKEND_FAILURE;
}

ErrorCode ErrorCodeOf(std::uint32_t status_code) noexcept {
  switch (status_code) {
    case BP_STATUS_INVALID_ARGUMENT: return ErrorCode::kInvalidArgument;
    case BP_STATUS_NOT_FOUND: return ErrorCode::kNotFound;
    case BP_STATUS_UNSUPPORTED: return ErrorCode::kUnsupported;
    case BP_STATUS_INTERNAL: return ErrorCode::kInternal;
    default: return ErrorCode::kBackendFailure;
  }
}

BpStatus* MakeStatus(std::uint32_t code, std::string message) noexcept {
  try {
    auto* owned = new OwnedStatus{{sizeof(BpStatus), code, {nullptr, 0}, &Destroy}, std::move(message)};
    owned->status.message = {owned->text.data(), owned->text.size()};
    return &owned->status;
  } catch (...) {
    return OutOfMemoryStatus();
  }
}

BpStatus* StatusFromCurrentException() noexcept {
  try {
    throw;
  } catch (const Exception& error) {
    return MakeStatus(StatusCodeOf(error.code()), error.what());
  } catch (const std::bad_alloc&) {
    return MakeStatus(BP_STATUS_OUT_OF_MEMORY, "out of memory");
  } catch (const std::exception& error) {
    return MakeStatus(BP_STATUS_BACKEND_FAILURE, error.what());
  } catch (...) {
    return MakeStatus(BP_STATUS_BACKEND_FAILURE, "non-standard exception");
  }
}

std::string MessageOf(const BpStatus* status) {
  if (!status || !status->message.data) return {};
  return std::string(status->message.data, status->message.size);
}

void ThrowIfFailed(BpStatus* received, const std::string& context) {
  StatusPtr status(received);
  if (!status) return;
  const std::string message = MessageOf(status.get());
  throw Exception(ErrorCodeOf(status->code), context.empty() ? message : context + ": " + message);
}

}  // namespace backplane::backend
