// Running a built tool from a test: its exit code, stdout and stderr. The e2e suite's only
// platform-specific code (popen / _popen, setenv / _putenv_s, the shell's kill) lives behind
// these functions.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace backplane::e2e {

struct ProcessResult {
  int exit_code = -1;  // the process's exit status; -1 when it did not exit normally
  std::string out;     // everything it wrote to stdout
  std::string err;     // everything it wrote to stderr
};

// Runs `program` with `arguments` (each passed as one argument, quoted for the shell) and
// waits for it. The child inherits this process's environment. Throws std::runtime_error when
// the child cannot be started or its output cannot be read.
ProcessResult RunProcess(const std::string& program, const std::vector<std::string>& arguments);

// As RunProcess, and sends the child SIGINT (what Ctrl-C sends) `delay` after it started; the
// result is what it printed and its exit code (-1 when the signal ended it). POSIX only: throws
// std::runtime_error on Windows, which has no SIGINT to send to another process.
ProcessResult RunProcessAndInterrupt(const std::string& program,
                                     const std::vector<std::string>& arguments,
                                     std::chrono::milliseconds delay);

// As RunProcessAndInterrupt, with SIGKILL (nothing of the program's own runs then). POSIX only.
ProcessResult RunProcessAndKill(const std::string& program, const std::vector<std::string>& arguments,
                                std::chrono::milliseconds delay);

// The process id a TEST_HANG_ON_LOAD test plugin wrote to its trace file `trace` (the line
// "hanging <id> <pid>", tests/plugins/test_backend.hpp), or -1 when there is none.
long HangingProcessId(const std::string& trace);

// Whether process `pid` ends within `limit` (gone, or a zombie its new parent has yet to reap).
// One that does not is killed (SIGKILL), so a failed check leaves nothing running. Linux only
// (reads /proc); throws std::runtime_error elsewhere.
bool ProcessEndsWithin(long pid, std::chrono::milliseconds limit);

// Whether the tools run by these tests read the environment: Backplane's variables and the
// user's folders (XDG_*). Windows builds are tested under Wine, which runs every program elevated,
// where the runtime ignores its variables (as a set-uid program does; the unit tests check that
// rule), and a Windows user's folders come from the profile, which no variable redirects. The
// cases that steer a tool through the environment are skipped there.
#if defined(_WIN32)
inline constexpr bool kToolsReadEnvironment = false;
#else
inline constexpr bool kToolsReadEnvironment = true;
#endif

// Sets (or, with nullopt, removes) an environment variable for the lifetime of the object and
// restores the previous value afterwards. Not thread-safe (the environment is process-wide).
class ScopedEnvironmentVariable {
 public:
  ScopedEnvironmentVariable(std::string name, const std::optional<std::string>& value);
  ~ScopedEnvironmentVariable();
  ScopedEnvironmentVariable(const ScopedEnvironmentVariable&) = delete;
  ScopedEnvironmentVariable& operator=(const ScopedEnvironmentVariable&) = delete;

 private:
  std::string name_;
  std::optional<std::string> previous_;
};

}  // namespace backplane::e2e
