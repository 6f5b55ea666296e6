// BpStatus on the C++ side of either end of the plugin boundary (backend_c_api.h): making one
// from an exception, and turning a received one back into an exception. The out-of-line code is
// in libbackplane_sdk (sdk/src/c_status.cpp); a library built against another standard library
// compiles the SDK's sources into itself. Either way a status is destroyed by the code that
// allocated it: its `destroy` pointer leads back there.
//
// This file owns the mapping between backplane::ErrorCode and BP_STATUS_*.
#pragma once

#include <backplane/backend_c_api.h>
#include <backplane/exception.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>

namespace backplane::backend {

// The BP_STATUS_* value for `code`. Never throws.
std::uint32_t StatusCodeOf(ErrorCode code) noexcept;

// The ErrorCode for a BP_STATUS_* value. Out of memory and unknown values have no ErrorCode of
// their own: they read as a backend failure. Never throws.
ErrorCode ErrorCodeOf(std::uint32_t status_code) noexcept;

// A new status the receiver destroys with status->destroy(status). Never throws and never
// returns null (out of memory gives a static status whose destroy does nothing).
BpStatus* MakeStatus(std::uint32_t code, std::string message) noexcept;

// The status for the exception being handled: backplane::Exception keeps its code,
// std::bad_alloc is BP_STATUS_OUT_OF_MEMORY, another std::exception BP_STATUS_BACKEND_FAILURE
// with what(), anything else BP_STATUS_BACKEND_FAILURE "non-standard exception". Call only
// inside a catch block. Never throws.
BpStatus* StatusFromCurrentException() noexcept;

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
std::string MessageOf(const BpStatus* status);

// Takes ownership of `status`; throws backplane::Exception with its code and "<context>: <message>"
// when it is not null.
void ThrowIfFailed(BpStatus* received, const std::string& context);

}  // namespace backplane::backend
