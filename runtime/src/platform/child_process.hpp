// A child process whose standard output and error go to files, which the parent polls and may
// kill: what plugin isolation runs the probe program with. The runtime's one place that starts
// processes (POSIX through Boost.Process; Windows through CreateProcessW, since Boost.Process
// 1.74 does not compile with MinGW-w64).
#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace backplane::platform {

// Owns the process handle. Not thread-safe: one thread polls it. Move-only. The destructor
// kills a child still running and reaps it, so none outlives its owner; and a child dies with
// this process however it ends (SIGKILL included): on Linux through PR_SET_PDEATHSIG, tied to
// the thread that called Start (which must not end before the child), on Windows through a job
// object that kills it when this process's handle to the job closes.
class ChildProcess {
 public:
  // Starts `program` (absolute) with `arguments` (UTF-8; each reaches the child as one argument,
  // quoted as Windows' command-line rules need), standard input empty, standard output and error
  // written to `stdout_file` and `stderr_file` (created or truncated). Throws
  // backplane::Exception(kNotFound), "<program> cannot be started: <the system's reason>", when
  // it cannot start.
  static ChildProcess Start(const std::filesystem::path& program, const std::vector<std::string>& arguments,
                            const std::filesystem::path& stdout_file,
                            const std::filesystem::path& stderr_file);

  ChildProcess(ChildProcess&&) noexcept;
  ChildProcess& operator=(ChildProcess&&) noexcept;
  ~ChildProcess();

  // Whether the child has not ended yet. Never blocks.
  bool Running();
  // Ends the child at once (SIGKILL, TerminateProcess) and reaps it. No effect once it ended.
  void Kill();
  // Waits for the child to end; returns its native status, for DecodeNativeExitStatus.
  int Wait();

 private:
  struct State;
  explicit ChildProcess(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// The Windows command line that gives `arguments` to a C or C++ program's main unchanged
// (CommandLineToArgvW's rules: quotes around each, backslashes doubled before a quote), program
// first. Exposed for its test; elsewhere only ChildProcess uses it.
std::wstring WindowsCommandLine(const std::wstring& program, const std::vector<std::wstring>& arguments);

}  // namespace backplane::platform
