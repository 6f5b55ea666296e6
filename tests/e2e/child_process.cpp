#include "child_process.hpp"

#include "temp_folder.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <utility>

#if defined(_WIN32)
#include <stdlib.h>
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>  // MultiByteToWideChar
#else
#include <sys/wait.h>

#include <csignal>
#endif

#include <sstream>
#include <thread>

namespace backplane::e2e {

namespace {

#if defined(_WIN32)
// The quoting CommandLineToArgvW (and the C runtime) undoes: backslashes are literal except in a
// run before a quote, where each is doubled (and the quote escaped), the closing quote included:
// "C:\folder\" is written "C:\folder\\".
std::string Quote(const std::string& argument) {
  std::string quoted = "\"";
  std::size_t backslashes = 0;
  for (char c : argument) {
    if (c == '\\') {
      ++backslashes;
    } else {
      if (c == '"') quoted.append(backslashes + 1, '\\');
      backslashes = 0;
    }
    quoted += c;
  }
  quoted.append(backslashes, '\\');  // before the closing quote
  return quoted + "\"";
}
FILE* OpenPipe(const std::string& command) {
  // cmd.exe /c strips the outermost quotes of the whole line. The line is UTF-8 (paths with
  // non-ASCII names included): it goes to the shell as UTF-16, as _popen would pass it in the
  // ANSI code page.
  const std::string line = "\"" + command + "\"";
  const int size = ::MultiByteToWideChar(CP_UTF8, 0, line.data(), static_cast<int>(line.size()), nullptr, 0);
  std::wstring wide(static_cast<std::size_t>(size), L'\0');
  ::MultiByteToWideChar(CP_UTF8, 0, line.data(), static_cast<int>(line.size()), wide.data(), size);
  return _wpopen(wide.c_str(), L"r");
}
int ClosePipe(FILE* pipe) { return _pclose(pipe); }
#else
std::string Quote(const std::string& argument) {
  std::string quoted = "'";
  for (char c : argument) {
    if (c == '\'') {
      quoted += "'\\''";
    } else {
      quoted += c;
    }
  }
  return quoted + "'";
}
FILE* OpenPipe(const std::string& command) { return popen(command.c_str(), "r"); }
int ClosePipe(FILE* pipe) {
  const int status = pclose(pipe);
  if (status == -1 || !WIFEXITED(status)) return -1;
  return WEXITSTATUS(status);
}
#endif

std::string ReadFile(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string CommandLine(const std::string& program, const std::vector<std::string>& arguments) {
  std::string command = Quote(program);
  for (const std::string& argument : arguments) command += " " + Quote(argument);
  return command;
}

// Runs `command` (a shell command line) with its stderr sent to a file.
ProcessResult RunShellCommand(std::string command) {
  test_support::TempFolder scratch("e2e-stderr");
  const std::filesystem::path err_file = scratch.path() / "stderr.txt";
  command += " 2>" + Quote(err_file.u8string());

  FILE* pipe = OpenPipe(command);
  if (pipe == nullptr) throw std::runtime_error("cannot start: " + command);
  ProcessResult result;
  char buffer[4096];
  std::size_t count = 0;
  while ((count = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) result.out.append(buffer, count);
  const bool read_failed = std::ferror(pipe) != 0;
  result.exit_code = ClosePipe(pipe);
  if (read_failed) throw std::runtime_error("cannot read the output of: " + command);
  result.err = ReadFile(err_file);
  return result;
}

}  // namespace

ProcessResult RunProcess(const std::string& program, const std::vector<std::string>& arguments) {
  return RunShellCommand(CommandLine(program, arguments));
}

namespace {

// Runs `program` and sends it `signal` ("INT", "KILL") `delay` after it started.
ProcessResult RunProcessAndSignal(const std::string& program, const std::vector<std::string>& arguments,
                                  std::chrono::milliseconds delay, const std::string& signal) {
#if defined(_WIN32)
  (void)program;
  (void)arguments;
  (void)delay;
  throw std::runtime_error("no SIG" + signal + " to send on Windows");
#else
  // The shell starts a sleeper in the background, then becomes the program (exec keeps its
  // pid, $$); the sleeper then sends that pid the signal.
  const std::string seconds = std::to_string(static_cast<double>(delay.count()) / 1000.0);
  return RunShellCommand("(sleep " + seconds + "; kill -" + signal + " $$) >/dev/null 2>&1 & exec " +
                         CommandLine(program, arguments));
#endif
}

}  // namespace

ProcessResult RunProcessAndInterrupt(const std::string& program,
                                     const std::vector<std::string>& arguments,
                                     std::chrono::milliseconds delay) {
  return RunProcessAndSignal(program, arguments, delay, "INT");
}

ProcessResult RunProcessAndKill(const std::string& program, const std::vector<std::string>& arguments,
                                std::chrono::milliseconds delay) {
  return RunProcessAndSignal(program, arguments, delay, "KILL");
}

long HangingProcessId(const std::string& trace) {
  std::istringstream lines(ReadFile(trace));
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string word, id;
    long pid = -1;
    if (words >> word >> id >> pid && word == "hanging") return pid;
  }
  return -1;
}

bool ProcessEndsWithin(long pid, std::chrono::milliseconds limit) {
#if defined(__linux__)
  const auto ended = [pid] {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string text;
    if (!std::getline(stat, text)) return true;  // gone
    const std::size_t name_end = text.rfind(')');  // "pid (name) S ..."
    return name_end != std::string::npos && text.compare(name_end, 4, ") Z ") == 0;
  };
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!ended()) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(static_cast<pid_t>(pid), SIGKILL);
      return false;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return true;
#else
  (void)pid;
  (void)limit;
  throw std::runtime_error("ProcessEndsWithin reads /proc: Linux only");
#endif
}

ScopedEnvironmentVariable::ScopedEnvironmentVariable(std::string name,
                                                     const std::optional<std::string>& value)
    : name_(std::move(name)) {
  if (const char* old = std::getenv(name_.c_str())) previous_ = old;
#if defined(_WIN32)
  _putenv_s(name_.c_str(), value ? value->c_str() : "");
#else
  if (value) {
    setenv(name_.c_str(), value->c_str(), 1);
  } else {
    unsetenv(name_.c_str());
  }
#endif
}

ScopedEnvironmentVariable::~ScopedEnvironmentVariable() {
#if defined(_WIN32)
  _putenv_s(name_.c_str(), previous_ ? previous_->c_str() : "");
#else
  if (previous_) {
    setenv(name_.c_str(), previous_->c_str(), 1);
  } else {
    unsetenv(name_.c_str());
  }
#endif
}

}  // namespace backplane::e2e
