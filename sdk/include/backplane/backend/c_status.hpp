// BpStatus on the C++ side of either end of the plugin boundary (backend_c_api.h): making one
// from an exception, and turning a received one back into an exception. Header-only, so each
// side compiles its own copy: a status is always destroyed by the code that allocated it (its
// `destroy` pointer leads back there).
//
// This file owns the mapping between backplane::ErrorCode and BP_STATUS_*.
#pragma once

#include <backplane/backend_c_api.h>
#include <backplane/exception.hpp>

#include <cstdint>
#include <exception>
#include <memory>
#include <new>
#include <string>
#include <type_traits>

namespace backplane::backend {

inline std::uint32_t StatusCodeOf(ErrorCode code) {
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

// Out of memory has no ErrorCode of its own: it reads as a backend failure.
inline ErrorCode ErrorCodeOf(std::uint32_t status_code) {
  switch (status_code) {
    case BP_STATUS_INVALID_ARGUMENT: return ErrorCode::kInvalidArgument;
    case BP_STATUS_NOT_FOUND: return ErrorCode::kNotFound;
    case BP_STATUS_UNSUPPORTED: return ErrorCode::kUnsupported;
    case BP_STATUS_INTERNAL: return ErrorCode::kInternal;
    default: return ErrorCode::kBackendFailure;
  }
}

namespace c_status_detail {
struct OwnedStatus {
  BpStatus status;  // first member: a BpStatus* is an OwnedStatus*
  std::string text;
};
inline void Destroy(BpStatus* status) { delete reinterpret_cast<OwnedStatus*>(status); }
// Returned when even the status cannot be allocated; destroying it does nothing.
inline BpStatus* OutOfMemoryStatus() {
  static const char kText[] = "out of memory";
  static BpStatus status{sizeof(BpStatus), BP_STATUS_OUT_OF_MEMORY, {kText, sizeof(kText) - 1},
                         [](BpStatus*) {}};
  return &status;
}
}  // namespace c_status_detail

// A new status the receiver destroys with status->destroy(status). Never throws and never
// returns null (out of memory gives a static status whose destroy does nothing).
inline BpStatus* MakeStatus(std::uint32_t code, std::string message) noexcept {
  try {
    auto* owned = new c_status_detail::OwnedStatus{
        {sizeof(BpStatus), code, {nullptr, 0}, &c_status_detail::Destroy}, std::move(message)};
    owned->status.message = {owned->text.data(), owned->text.size()};
    return &owned->status;
  } catch (...) {
    return c_status_detail::OutOfMemoryStatus();
  }
}

// The status for the exception being handled. Call only inside a catch block.
inline BpStatus* StatusFromCurrentException() noexcept {
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

// Runs `call` (returning void or BpStatus*), turning whatever it throws into a status: the body
// of every function that crosses the boundary. Never throws.
template <typename Call>
BpStatus* GuardedCall(Call&& call) noexcept {
  try {
    if constexpr (std::is_same_v<decltype(call()), BpStatus*>) {
      return call();
    } else {
      call();
      return nullptr;
    }
  } catch (...) {
    return StatusFromCurrentException();
  }
}

// Owns a received status.
struct StatusDeleter {
  void operator()(BpStatus* status) const noexcept {
    if (status && status->destroy) status->destroy(status);
  }
};
using StatusPtr = std::unique_ptr<BpStatus, StatusDeleter>;

// The message of a received status as a string ("" for a null or malformed status).
inline std::string MessageOf(const BpStatus* status) {
  if (!status || !status->message.data) return {};
  return std::string(status->message.data, status->message.size);
}

// Takes ownership of `status`; throws backplane::Exception with its code and "<context>: <message>"
// when it is not null.
inline void ThrowIfFailed(BpStatus* received, const std::string& context) {
  StatusPtr status(received);
  if (!status) return;
  const std::string message = MessageOf(status.get());
  throw Exception(ErrorCodeOf(status->code), context.empty() ? message : context + ": " + message);
}

}  // namespace backplane::backend
