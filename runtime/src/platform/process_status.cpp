#include "platform/process_status.hpp"

#include <cstdio>

#if defined(_WIN32)
#include <cstdint>
#else
#include <csignal>
#include <sys/wait.h>
#endif

namespace backplane::platform {

#if defined(_WIN32)

ProcessStatus DecodeNativeExitStatus(int native_status) {
  ProcessStatus status;
  const auto code = static_cast<std::uint32_t>(native_status);
  // NTSTATUS error values (0xC0000000 and up) mean an unhandled exception ended the process.
  if (code >= 0xC0000000u) {
    char text[32];
    std::snprintf(text, sizeof text, "exception 0x%08X", static_cast<unsigned>(code));
    status.crashed = true;
    status.crash = text;
    if (code == 0xC0000005u) status.crash += " (access violation)";
    if (code == 0xC0000409u) status.crash += " (stack buffer overrun / abort)";
    return status;
  }
  status.exit_code = native_status;
  return status;
}

#else

namespace {

struct SignalName {
  int number;
  const char* name;
};

// The signals a crashing or killed plugin is likely to end with.
constexpr SignalName kSignalNames[] = {
    {SIGSEGV, "SIGSEGV"}, {SIGABRT, "SIGABRT"}, {SIGBUS, "SIGBUS"},   {SIGFPE, "SIGFPE"},
    {SIGILL, "SIGILL"},   {SIGTRAP, "SIGTRAP"}, {SIGSYS, "SIGSYS"},   {SIGKILL, "SIGKILL"},
    {SIGTERM, "SIGTERM"}, {SIGINT, "SIGINT"},   {SIGQUIT, "SIGQUIT"}, {SIGPIPE, "SIGPIPE"},
    {SIGHUP, "SIGHUP"},   {SIGALRM, "SIGALRM"}, {SIGXCPU, "SIGXCPU"}, {SIGXFSZ, "SIGXFSZ"},
};

std::string NameOfSignal(int number) {
  for (const SignalName& entry : kSignalNames) {
    if (entry.number == number) return entry.name;
  }
  return "signal " + std::to_string(number);
}

}  // namespace

ProcessStatus DecodeNativeExitStatus(int native_status) {
  ProcessStatus status;
  if (WIFSIGNALED(native_status)) {
    status.crashed = true;
    status.crash = NameOfSignal(WTERMSIG(native_status));
  } else if (WIFEXITED(native_status)) {
    status.exit_code = WEXITSTATUS(native_status);
  } else {
    status.crashed = true;
    status.crash = "wait status " + std::to_string(native_status);
  }
  return status;
}

#endif

}  // namespace backplane::platform
