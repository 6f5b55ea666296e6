// sdk-run: run an ONNX model on the registered backends and report placement and timing.
//
// Imports the model, places its layers on the backends in order of preference, loads it, runs
// it (warmup, timed iterations, optionally several contexts in parallel) and prints a summary
// or a JSON document. --compare-backends runs it on two backends instead and compares their
// outputs; --input-set runs several input sets (of any shapes) through one onnx::Session. Exits with a code scripts can test (exit_code.hpp, docs/sdk-run.md).
#include "command_line.hpp"
#include "compare_mode.hpp"
#include "exit_code.hpp"
#include "json_report.hpp"
#include "report_file.hpp"
#include "run_mode.hpp"
#include "runtime_setup.hpp"
#include "sets_mode.hpp"
#include "text_report.hpp"

#include "terminal.hpp"
#include "tool_main.hpp"

#include <iostream>

namespace {

using namespace backplane;
using namespace backplane::sdk_run;

int Exit(ExitCode code) { return static_cast<int>(code); }

// Writes what is buffered to stdout; throws ToolError (kCannotWrite) when stdout cannot take it.
void FlushStdout() {
  std::cout.flush();
  if (!std::cout) throw ToolError(ExitCode::kCannotWrite, "could not write the report to stdout");
}

TextReportOptions TextOptions(const CommandLine& command_line) {
  TextReportOptions options;
  options.colour = tools::ShouldColourStdout();
  options.verbose = command_line.verbose;
  return options;
}

int ListBackends(const CommandLine& command_line) {
  for (const std::string& id : AvailableBackends(*CreateRuntime(command_line))) std::cout << id << '\n';
  FlushStdout();
  return Exit(ExitCode::kOk);
}

// Prints `report` (text or JSON) on stdout, writes the JSON to --report FILE when given, and
// returns the report's exit code.
template <typename Report>
int Print(const CommandLine& command_line, const Report& report) {
  if (!command_line.report_file.empty()) WriteReportFile(command_line.report_file, JsonReport(report));
  if (command_line.json) {
    std::cout << JsonReport(report);
  } else {
    WriteTextReport(std::cout, report, TextOptions(command_line));
  }
  FlushStdout();
  return Exit(report.Status());
}

// Progress lines go to stderr, so they never mix with the report (or the JSON) on stdout.
bool ShowProgress(const CommandLine& command_line) {
  return !command_line.json && tools::IsStderrTerminal();
}

int Compare(const CommandLine& command_line) {
  return Print(command_line, CompareBackends(command_line, ShowProgress(command_line)));
}

int Run(const CommandLine& command_line) {
  return Print(command_line, RunModel(command_line, ShowProgress(command_line)));
}

int RunSets(const CommandLine& command_line) {
  return Print(command_line, RunInputSets(command_line, ShowProgress(command_line)));
}

int Main(int argc, const char* const argv[]) {
  CommandLine command_line;
  try {
    command_line = ParseCommandLine(argc, argv);
  } catch (const ToolError& error) {
    std::cerr << "sdk-run: " << error.what() << "\nTry 'sdk-run --help'.\n";
    return Exit(error.code());
  }
  if (command_line.help) {
    std::cout << HelpText();
    return Exit(ExitCode::kOk);
  }
  if (command_line.version) {
    std::cout << VersionText();
    return Exit(ExitCode::kOk);
  }
  try {
    if (command_line.list_backends) return ListBackends(command_line);
    if (!command_line.report_file.empty()) CheckReportPath(command_line.report_file);
    if (!command_line.compare.empty()) return Compare(command_line);
    return command_line.input_sets.empty() ? Run(command_line) : RunSets(command_line);
  } catch (const ToolError& error) {
    std::cerr << "sdk-run: " << error.what() << '\n';
    if (error.code() == ExitCode::kUsage) std::cerr << "Try 'sdk-run --help'.\n";
    return Exit(error.code());
  }
}

}  // namespace

int main(int argc, char* argv[]) {
  // A backend that ends the process mid-run does not make it look like a success.
  return tools::ToolMain("sdk-run", Exit(ExitCode::kRuntimeFailure), argc, argv, Main);
}
