// sdk-info: which backends this machine can use, and why the others are not loaded.
//
// Creates a Runtime (allow_no_backends), prints its discovery report and registered backends as
// text or JSON, and exits with a code that scripts can test (exit_code.hpp). With
// --validate-manifest it checks manifest files instead and creates no runtime. With --isolate
// the runtime first loads every plugin library in a child process under a time limit
// (RuntimeOptions::isolation, probing every library again).
#include "command_line.hpp"
#include "exit_code.hpp"
#include "inventory.hpp"
#include "json_report.hpp"
#include "manifest_validation_report.hpp"
#include "stderr_log_sink.hpp"
#include "terminal.hpp"
#include "text_report.hpp"

#include <backplane/runtime.hpp>

#include <exception>
#include <iostream>
#include <memory>
#include <vector>

namespace {

using namespace backplane;
using namespace backplane::sdk_info;
using backplane::tools::ShouldColourStdout;

int Exit(ExitCode code) { return static_cast<int>(code); }

RuntimeOptions MakeRuntimeOptions(const CommandLine& command_line) {
  RuntimeOptions options;
  options.backend_paths = command_line.paths;
  options.enable_dynamic_backends = !command_line.no_dynamic;
  options.enable_static_backends = !command_line.no_static;
  options.allow_no_backends = true;
  if (command_line.verbose) options.log_sink = std::make_shared<StderrLogSink>(LogLevel::kDebug);
  // Diagnosing: every library is probed again (a stale quarantine is cleared, a new one
  // recorded), and the verdicts go to the store that apps with isolation read.
  options.isolation.enabled = command_line.isolate;
  options.isolation.timeout_seconds = command_line.timeout_seconds;
  options.isolation.reprobe = true;
  return options;
}

// The runtime's view of this machine. allow_no_backends keeps Create from throwing
// NoBackendsError; if it does anyway, its report says the same.
Inventory TakeInventory(const RuntimeOptions& options) {
  Inventory inventory;
  try {
    const std::unique_ptr<Runtime> runtime = Runtime::Create(options);
    inventory = MakeInventory(runtime->GetDiscoveryReport(), runtime->GetBackends());
  } catch (const NoBackendsError& error) {
    inventory = MakeInventory(error.report(), {});
  }
  inventory.trust = ResolveTrustSettings(options.trust);
  return inventory;
}

// Writes the report to stdout; false (after a message on stderr) when stdout cannot take it.
bool FlushStdout() {
  std::cout.flush();
  if (std::cout) return true;
  std::cerr << "sdk-info: could not write the report to stdout\n";
  return false;
}

int RunManifestValidation(const CommandLine& command_line) {
  const std::vector<ValidatedManifest> manifests = ValidateManifests(command_line.manifests);
  if (command_line.json) {
    std::cout << ManifestValidationJson(manifests);
  } else {
    WriteManifestValidationText(std::cout, manifests, ShouldColourStdout());
  }
  if (!FlushStdout()) return Exit(ExitCode::kInternalError);
  return Exit(ExitCodeFor(manifests));
}

int Run(int argc, const char* const argv[]) {
  CommandLine command_line;
  try {
    command_line = ParseCommandLine(argc, argv);
  } catch (const UsageError& error) {
    std::cerr << "sdk-info: " << error.what() << "\nTry 'sdk-info --help'.\n";
    return Exit(ExitCode::kUsage);
  }
  if (command_line.help) {
    std::cout << HelpText();
    return Exit(ExitCode::kOk);
  }
  if (command_line.version) {
    std::cout << VersionText();
    return Exit(ExitCode::kOk);
  }

  if (!command_line.manifests.empty()) return RunManifestValidation(command_line);

  Inventory inventory;
  try {
    inventory = TakeInventory(MakeRuntimeOptions(command_line));
  } catch (const Exception& error) {
    std::cerr << "sdk-info: the runtime failed (" << ToString(error.code()) << "): " << error.what()
              << '\n';
    return Exit(ExitCode::kInternalError);
  }

  if (command_line.json) {
    std::cout << JsonReport(inventory);
  } else {
    TextReportOptions options;
    options.colour = ShouldColourStdout();
    options.verbose = command_line.verbose;
    WriteTextReport(std::cout, inventory, options);
  }
  if (!FlushStdout()) return Exit(ExitCode::kInternalError);
  return Exit(ExitCodeFor(inventory));
}

}  // namespace

int main(int argc, char* argv[]) {
  try {
    return Run(argc, argv);
  } catch (const std::exception& error) {
    std::cerr << "sdk-info: unexpected error: " << error.what() << '\n';
    return Exit(ExitCode::kInternalError);
  }
}
