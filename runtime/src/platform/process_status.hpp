// How a child process ended, from the native status Boost.Process reports. The runtime's only
// code that knows wait-status macros and signal names (POSIX) or exception codes (Windows).
#pragma once

#include <string>

namespace backplane::platform {

// Value type.
struct ProcessStatus {
  bool crashed = false;  // killed by a signal (POSIX) or ended by an exception (Windows)
  int exit_code = 0;     // when !crashed: the code passed to exit()
  std::string crash;     // when crashed: "SIGSEGV", "signal 42", "exception 0xC0000005"
};

// Decodes boost::process::child::native_exit_code(). Thread-safe. Never throws but for
// std::bad_alloc.
ProcessStatus DecodeNativeExitStatus(int native_status);

}  // namespace backplane::platform
