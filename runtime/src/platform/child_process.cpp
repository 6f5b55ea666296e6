#include "platform/child_process.hpp"

#include <backplane/exception.hpp>
#include <backplane/path_text.hpp>

#if defined(_WIN32)
#include "platform/windows_api.hpp"

#include "platform/windows_text.hpp"
#else
#include <boost/process/args.hpp>
#include <boost/process/child.hpp>
#include <boost/process/exe.hpp>
#include <boost/process/extend.hpp>
#include <boost/process/io.hpp>

#include <unistd.h>
#if defined(__linux__)
#include <sys/prctl.h>

#include <csignal>
#endif
#endif

#include <system_error>
#include <utility>

namespace backplane::platform {

namespace fs = std::filesystem;

std::wstring WindowsCommandLine(const std::wstring& program, const std::vector<std::wstring>& arguments) {
  std::wstring line;
  auto append = [&line](const std::wstring& argument) {
    if (!line.empty()) line += L' ';
    line += L'"';
    std::size_t backslashes = 0;
    for (const wchar_t c : argument) {
      if (c == L'\\') {
        ++backslashes;
        continue;
      }
      // Backslashes before a quote are doubled, and the quote escaped; elsewhere they are literal.
      line.append(c == L'"' ? backslashes * 2 + 1 : backslashes, L'\\');
      backslashes = 0;
      line += c;
    }
    line.append(backslashes * 2, L'\\');  // before the closing quote
    line += L'"';
  };
  append(program);
  for (const std::wstring& argument : arguments) append(argument);
  return line;
}

#if defined(_WIN32)

struct ChildProcess::State {
  HANDLE process = nullptr;
  // A job of this child alone, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE: when this process ends, however it
  // ends, the system closes the handle and the child goes with it. Not inheritable.
  HANDLE job = nullptr;
  ~State() {
    if (process != nullptr) ::CloseHandle(process);
    if (job != nullptr) ::CloseHandle(job);
  }
};

namespace {

// An inheritable handle closed when this goes.
struct InheritableHandle {
  HANDLE handle = INVALID_HANDLE_VALUE;
  ~InheritableHandle() {
    if (handle != INVALID_HANDLE_VALUE) ::CloseHandle(handle);
  }
};

InheritableHandle OpenForChild(const fs::path& path, bool write) {
  SECURITY_ATTRIBUTES inherit{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
  InheritableHandle file;
  file.handle = ::CreateFileW(path.c_str(), write ? GENERIC_WRITE : GENERIC_READ,
                              FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, &inherit,
                              write ? CREATE_ALWAYS : OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (file.handle == INVALID_HANDLE_VALUE) {
    throw Exception(ErrorCode::kNotFound, "cannot open " + PathToUtf8(path) + " for a child process: " +
                                              SystemErrorText(::GetLastError()));
  }
  return file;
}

// A new job that kills its processes when its last handle closes.
HANDLE KillOnCloseJob() {
  HANDLE job = ::CreateJobObjectW(nullptr, nullptr);
  JOBOBJECT_EXTENDED_LIMIT_INFORMATION limits{};
  limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
  if (job == nullptr ||
      !::SetInformationJobObject(job, JobObjectExtendedLimitInformation, &limits, sizeof limits)) {
    const DWORD error = ::GetLastError();
    if (job != nullptr) ::CloseHandle(job);
    throw Exception(ErrorCode::kInternal, "cannot make the job object of a child process: " + SystemErrorText(error));
  }
  return job;
}

}  // namespace

ChildProcess ChildProcess::Start(const fs::path& program, const std::vector<std::string>& arguments,
                                 const fs::path& stdout_file, const fs::path& stderr_file) {
  const InheritableHandle in = OpenForChild(L"NUL", false);
  const InheritableHandle out = OpenForChild(stdout_file, true);
  const InheritableHandle err = OpenForChild(stderr_file, true);

  std::vector<std::wstring> wide_arguments;
  for (const std::string& argument : arguments) wide_arguments.push_back(WideFromUtf8(argument));
  std::wstring command_line = WindowsCommandLine(program.wstring(), wide_arguments);

  auto state = std::make_unique<State>();
  state->job = KillOnCloseJob();

  // Only these three handles are inherited, not whatever else of this process is inheritable
  // (another thread may be starting a child of its own at the same time).
  HANDLE inherited[] = {in.handle, out.handle, err.handle};
  SIZE_T list_size = 0;
  ::InitializeProcThreadAttributeList(nullptr, 1, 0, &list_size);
  std::vector<unsigned char> list_storage(list_size);
  auto* list = reinterpret_cast<LPPROC_THREAD_ATTRIBUTE_LIST>(list_storage.data());
  if (!::InitializeProcThreadAttributeList(list, 1, 0, &list_size) ||
      !::UpdateProcThreadAttribute(list, 0, PROC_THREAD_ATTRIBUTE_HANDLE_LIST, inherited, sizeof inherited,
                                   nullptr, nullptr)) {
    throw Exception(ErrorCode::kInternal, "cannot prepare the handles of a child process: " +
                                              SystemErrorText(::GetLastError()));
  }
  STARTUPINFOEXW startup{};
  startup.StartupInfo.cb = sizeof startup;
  startup.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
  startup.StartupInfo.hStdInput = in.handle;
  startup.StartupInfo.hStdOutput = out.handle;
  startup.StartupInfo.hStdError = err.handle;
  startup.lpAttributeList = list;
  // Suspended until it is in the job, so none of its code runs outside it.
  PROCESS_INFORMATION started{};
  const BOOL ok = ::CreateProcessW(program.c_str(), command_line.data(), nullptr, nullptr, TRUE,
                                   CREATE_NO_WINDOW | CREATE_SUSPENDED | EXTENDED_STARTUPINFO_PRESENT, nullptr,
                                   nullptr, &startup.StartupInfo, &started);
  const DWORD error = ::GetLastError();
  ::DeleteProcThreadAttributeList(list);
  if (!ok) {
    throw Exception(ErrorCode::kNotFound,
                    PathToUtf8(program) + " cannot be started: " + SystemErrorText(error));
  }
  state->process = started.hProcess;
  if (!::AssignProcessToJobObject(state->job, started.hProcess)) {
    const DWORD assign_error = ::GetLastError();
    ::TerminateProcess(started.hProcess, 1);
    ::CloseHandle(started.hThread);
    throw Exception(ErrorCode::kInternal, PathToUtf8(program) + " cannot be tied to this process's lifetime: " +
                                              SystemErrorText(assign_error));
  }
  ::ResumeThread(started.hThread);
  ::CloseHandle(started.hThread);
  return ChildProcess(std::move(state));
}

bool ChildProcess::Running() {
  return state_->process != nullptr && ::WaitForSingleObject(state_->process, 0) == WAIT_TIMEOUT;
}

void ChildProcess::Kill() {
  if (!Running()) return;
  ::TerminateProcess(state_->process, 1);
  ::WaitForSingleObject(state_->process, INFINITE);
}

int ChildProcess::Wait() {
  ::WaitForSingleObject(state_->process, INFINITE);
  DWORD code = 0;
  ::GetExitCodeProcess(state_->process, &code);
  return static_cast<int>(code);
}

#else

namespace bp = boost::process;

struct ChildProcess::State {
  bp::child child;
};

namespace {

// Runs in the child between fork and exec: the child gets SIGKILL when the thread that started
// it ends (Linux ties PR_SET_PDEATHSIG to that thread; ChildProcess's owner outlives the child
// on it), so a parent killed with SIGKILL takes its child along. Should the parent have died
// before this ran, the child was already handed to another parent: it ends at once instead.
// Elsewhere (no such call) the owner's destructor is all there is. Only async-signal-safe calls.
struct DieWithParent : bp::extend::handler {
  explicit DieWithParent(pid_t parent_id) : parent(parent_id) {}
  pid_t parent;
  template <typename Executor>
  void on_exec_setup(Executor&) const {
#if defined(__linux__)
    if (::prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || ::getppid() != parent) ::_exit(127);
#endif
  }
};

}  // namespace

ChildProcess ChildProcess::Start(const fs::path& program, const std::vector<std::string>& arguments,
                                 const fs::path& stdout_file, const fs::path& stderr_file) {
  std::error_code error;
  // Files, not pipes: nothing to drain while waiting, and no SIGCHLD handler as asynchronous
  // pipes need.
  // POSIX: the native names are the bytes of the paths.
  bp::child child(bp::exe = program.native(), bp::args = arguments, bp::std_in < bp::null,
                  bp::std_out > stdout_file.native(), bp::std_err > stderr_file.native(),
                  DieWithParent(::getpid()), error);
  if (error) {
    throw Exception(ErrorCode::kNotFound, PathToUtf8(program) + " cannot be started: " + error.message());
  }
  return ChildProcess(std::make_unique<State>(State{std::move(child)}));
}

bool ChildProcess::Running() {
  std::error_code error;
  return state_->child.running(error) && !error;
}

void ChildProcess::Kill() {
  std::error_code error;
  if (state_->child.running(error)) state_->child.terminate(error);  // SIGKILL; reaps the child
}

int ChildProcess::Wait() {
  std::error_code error;
  state_->child.wait(error);
  return state_->child.native_exit_code();
}

#endif

ChildProcess::ChildProcess(std::unique_ptr<State> state) : state_(std::move(state)) {}
ChildProcess::ChildProcess(ChildProcess&&) noexcept = default;
ChildProcess& ChildProcess::operator=(ChildProcess&&) noexcept = default;

ChildProcess::~ChildProcess() {
  if (state_) Kill();
}

}  // namespace backplane::platform
