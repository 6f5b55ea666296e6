#include "isolation/plugin_probe.hpp"

#include "log.hpp"
#include "platform/child_process.hpp"
#include "platform/process_status.hpp"

#include <backplane/exception.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <system_error>
#include <thread>

namespace backplane::isolation {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

constexpr std::size_t kMaxOutputBytes = 64 * 1024;  // the report is one short line

// A temporary file removed when this goes; the child writes its stdout or stderr there.
class TemporaryFile {
 public:
  explicit TemporaryFile(const char* what) {
    static thread_local std::mt19937_64 generator{std::random_device{}()};
    char name[64];
    std::snprintf(name, sizeof name, "backplane-probe-%016llx.%s", static_cast<unsigned long long>(generator()),
                  what);
    std::error_code error;
    path_ = fs::temp_directory_path(error) / name;
    if (error) throw Exception(ErrorCode::kInternal, "no temporary folder for the plugin probe: " + error.message());
  }
  ~TemporaryFile() {
    std::error_code ignored;
    fs::remove(path_, ignored);
  }
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

  const fs::path& path() const { return path_; }
  // At most kMaxOutputBytes of what was written.
  std::string Read() const {
    std::ifstream in(path_, std::ios::binary);
    std::string text(kMaxOutputBytes, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    return text;
  }

 private:
  fs::path path_;
};

}  // namespace

std::string FormatSeconds(double seconds) {
  std::ostringstream text;
  text << seconds << " s";
  return text.str();
}

ProbeResult ProbeLibrary(const fs::path& program, const ProbeRequest& request, double timeout_seconds,
                         ILogSink& log) {
  const std::string& library = request.library;
  const TemporaryFile out("out");
  const TemporaryFile err("err");
  platform::ChildProcess child = [&] {
    try {
      return platform::ChildProcess::Start(program, ProbeArguments(request), out.path(), err.path());
    } catch (const Exception& error) {
      throw Exception(ErrorCode::kNotFound, "the probe program " + std::string(error.what()));
    }
  }();

  // Polls (1 ms, doubling up to 20 ms) so that a quick probe costs little more than its run.
  const auto deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(
                                           std::chrono::duration<double>(timeout_seconds));
  auto pause = std::chrono::milliseconds(1);
  while (child.Running() && Clock::now() < deadline) {
    std::this_thread::sleep_for(pause);
    pause = std::min(pause * 2, std::chrono::milliseconds(20));
  }
  ProbeResult result;
  if (child.Running()) {
    child.Kill();
    result.outcome = ProbeOutcome::kHung;
    result.reason = "did not finish loading within " + FormatSeconds(timeout_seconds) +
                    " (the probe process was killed)";
  } else {
    const int native_status = child.Wait();
    const bool reported = IsProbeReportFor(out.Read(), library);
    const platform::ProcessStatus status = platform::DecodeNativeExitStatus(native_status);
    if (status.crashed) {
      result.outcome = ProbeOutcome::kCrashed;
      result.reason = (reported ? "crashed after loading, while being unloaded (" : "crashed while loading (") +
                      status.crash + ") in the probe process";
    } else if (!reported || status.exit_code != 0) {
      result.outcome = ProbeOutcome::kExited;
      result.reason = "made the probe process exit with status " + std::to_string(status.exit_code) +
                      " before it finished loading";
    }
  }
  const std::string messages = err.Read();
  if (!messages.empty()) {
    Log(log, LogLevel::kDebug, LogCategory::kPlugin, "probe of " + library + " wrote to stderr:\n" + messages);
  }
  return result;
}

}  // namespace backplane::isolation
