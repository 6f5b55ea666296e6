// backplane-plugin-probe [--trust-policy P] [--trusted-keys FOLDER]... LIBRARY: loads one plugin
// library the way Runtime::Create does and prints its discovery record, for
// RuntimeOptions::isolation (runtime/src/isolation/). The runtime runs it in a child process, so
// that a library that crashes, hangs or exits while it is opened or registered takes only this
// process down; it passes its own trust policy and key folders (probe_report.hpp), so the child
// loads only what the parent would.
//
// It creates a Runtime over LIBRARY's folder (no static backends, no isolation) whose library
// filter admits only LIBRARY, so the same discovery code checks the manifest (when the library
// has one), opens the library, checks its identity, registers the backend and asks for its
// devices and availability. It then prints LIBRARY's record as one JSON line (probe_report.hpp)
// and exits 0, whatever the verdict; the runtime's log goes to stderr. Exit status 2: bad
// command line; 3: LIBRARY is not a candidate in its folder (its manifest does not name it, or
// its name does not follow the naming scheme).
#include "isolation/probe_report.hpp"

#include <backplane/path_text.hpp>
#include <backplane/program_arguments.hpp>
#include <backplane/runtime.hpp>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <system_error>
#include <vector>

namespace {

namespace fs = std::filesystem;
using namespace backplane;

// Everything from the runtime's log, to stderr, which the parent logs at debug level.
class StderrSink final : public ILogSink {
 public:
  void Write(LogLevel level, LogCategory category, std::string_view message) override {
    std::cerr << "[" << ToString(level) << "] " << ToString(category) << ": " << message << '\n';
  }
};

bool SameFile(const fs::path& a, const fs::path& b) {
  std::error_code error;
  const bool same = fs::equivalent(a, b, error);
  return !error && same;
}

int Run(const isolation::ProbeRequest& request) {
  const std::string& library = request.library;
  RuntimeOptions options;
  options.trust.policy = request.policy;
  options.trust.key_folders = request.key_folders;
  const fs::path library_file = PathFromUtf8(library);
  options.backend_paths = {PathToUtf8(library_file.parent_path())};
  options.enable_static_backends = false;
  options.allow_no_backends = true;
  options.log_sink = std::make_shared<StderrSink>();
  options.library_filter = [&library_file](const DiscoveryRecord& candidate) -> std::string {
    return SameFile(PathFromUtf8(candidate.library_path), library_file) ? "" : "not the library this probe is for";
  };
  const std::unique_ptr<Runtime> runtime = Runtime::Create(options);
  // The backend's devices and availability too (asked on first need since Backend API 2.6):
  // a library that crashes or hangs there takes this process down, not the application's.
  runtime->GetBackends();
  for (const DiscoveryRecord& record : runtime->GetDiscoveryReport().records) {
    if (record.code == ReasonCode::kLibraryRefused || !SameFile(PathFromUtf8(record.library_path), library_file)) {
      continue;
    }
    DiscoveryRecord reported = record;
    reported.library_path = library;  // as the parent named it
    std::cout << isolation::ProbeReportJson(reported);
    std::cout.flush();
    return std::cout ? 0 : 1;
  }
  std::cerr << "backplane-plugin-probe: " << library << " is not a plugin candidate in its folder\n";
  return 3;
}

}  // namespace

int main(int argc, char* argv[]) {
  // The arguments in UTF-8, as the runtime passed them (Windows' argv has them in the ANSI code page).
  const ProgramArguments arguments(argc, argv);
  std::string error;
  const std::vector<std::string> words(arguments.argv() + std::min(arguments.argc(), 1),
                                       arguments.argv() + arguments.argc());
  const std::optional<isolation::ProbeRequest> request = isolation::ParseProbeArguments(words, error);
  if (!request) {
    std::cerr << "backplane-plugin-probe: " << error << "\nusage: backplane-plugin-probe [--trust-policy P] "
                 "[--trusted-keys FOLDER]... LIBRARY (an absolute path; run by the Backplane runtime with "
                 "plugin isolation on)\n";
    return 2;
  }
  int status = 1;
  try {
    status = Run(*request);  // the Runtime, and with it the plugin, is unloaded before it returns
  } catch (const std::exception& error) {
    std::cerr << "backplane-plugin-probe: " << error.what() << '\n';
  }
  // The verdict is complete once the plugin was loaded, registered and unloaded. What ran at a
  // normal exit now would belong to other libraries (atexit handlers of the plugin's
  // dependencies; in sanitized builds, LeakSanitizer reporting memory that a library unloaded
  // with the plugin still owned, such as the OpenCL ICD loader's vendor list) and would turn a
  // good verdict into "exited with status 1". So end here, without them.
  std::cout.flush();
  std::cerr.flush();
  std::_Exit(status);
}
