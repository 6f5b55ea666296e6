// sdk-info: which backends this machine can use, and why the others are not loaded.
//
// Creates a Runtime (allow_no_backends), prints its discovery report and registered backends as
// text or JSON, and exits with a code that scripts can test (exit_code.hpp). With
// --validate-manifest it checks manifest files instead and creates no runtime. With --isolate
// the runtime first loads every plugin library in a child process under a time limit
// (RuntimeOptions::isolation, probing every library again). --summary and --backend ID choose a
// shorter report, --output FILE where it goes; with --json, errors are a JSON document too.
#include "command_line.hpp"
#include "exit_code.hpp"
#include "inventory.hpp"
#include "json_report.hpp"
#include "manifest_validation_report.hpp"
#include "report_destination.hpp"
#include "stderr_log_sink.hpp"
#include "terminal.hpp"
#include "text_report.hpp"
#include "tool_main.hpp"

#include <backplane/runtime.hpp>

#include <exception>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <utility>
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

// Reports `error` and returns its exit code: with --json as one document on stdout (never in the
// --output file), else as one line on stderr, with a pointer to --help for a usage error.
int ReportError(bool json, const ToolError& error) {
  if (json) {
    std::cout << JsonError(error.code(), error.what());
    std::cout.flush();
  } else {
    std::cerr << "sdk-info: " << error.what() << '\n';
    if (error.code() == ExitCode::kUsage) std::cerr << "Try 'sdk-info --help'.\n";
  }
  return Exit(error.code());
}

// Colour only on a terminal: never in an --output file.
bool Colour(const CommandLine& command_line) {
  return command_line.output_file.empty() && ShouldColourStdout();
}

int RunManifestValidation(const CommandLine& command_line) {
  const std::vector<ValidatedManifest> manifests = ValidateManifests(command_line.manifests);
  std::ostringstream report;
  if (command_line.json) {
    report << ManifestValidationJson(manifests);
  } else {
    WriteManifestValidationText(report, manifests, Colour(command_line));
  }
  WriteReport(report.str(), command_line.output_file);
  return Exit(ExitCodeFor(manifests));
}

// The report the command line asks for, and the exit code that goes with it.
std::pair<std::string, ExitCode> MakeReport(const CommandLine& command_line, const Inventory& inventory) {
  TextReportOptions options;
  options.colour = Colour(command_line);
  options.verbose = command_line.verbose;
  std::ostringstream text;
  if (!command_line.backend_id.empty()) {
    const std::optional<std::size_t> backend = FindBackend(inventory, command_line.backend_id);
    if (!backend) {
      throw ToolError(ExitCode::kBackendNotFound, BackendNotFoundMessage(inventory, command_line.backend_id));
    }
    if (command_line.json) return {JsonBackend(inventory, *backend), ExitCode::kOk};
    WriteBackendText(text, inventory, *backend, options);
    return {text.str(), ExitCode::kOk};
  }
  if (command_line.json) {
    return {command_line.summary ? JsonSummary(inventory) : JsonReport(inventory), ExitCodeFor(inventory)};
  }
  if (command_line.summary) {
    WriteSummaryText(text, inventory, options);
  } else {
    WriteTextReport(text, inventory, options);
  }
  return {text.str(), ExitCodeFor(inventory)};
}

int RunDiscovery(const CommandLine& command_line) {
  Inventory inventory;
  try {
    inventory = TakeInventory(MakeRuntimeOptions(command_line));
  } catch (const Exception& error) {
    throw ToolError(ExitCode::kInternalError,
                    std::string("the runtime failed (") + ToString(error.code()) + "): " + error.what());
  }
  const auto [report, exit_code] = MakeReport(command_line, inventory);
  WriteReport(report, command_line.output_file);
  return Exit(exit_code);
}

int Run(int argc, const char* const argv[]) {
  CommandLine command_line;
  try {
    command_line = ParseCommandLine(argc, argv);
  } catch (const UsageError& error) {
    throw ToolError(ExitCode::kUsage, error.what());
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
  return RunDiscovery(command_line);
}

// Run, with its errors reported as the command line asks (JSON on stdout with --json).
int RunReportingErrors(int argc, const char* const argv[]) {
  const bool json = WantsJson(argc, argv);
  try {
    return Run(argc, argv);
  } catch (const ToolError& error) {
    return ReportError(json, error);
  } catch (const std::exception& error) {
    return ReportError(json, ToolError(ExitCode::kInternalError, std::string("unexpected error: ") + error.what()));
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  // A plugin that ends the process while it is loaded does not make the report look complete.
  return tools::ToolMain("sdk-info", Exit(ExitCode::kInternalError), argc, argv, RunReportingErrors);
}
