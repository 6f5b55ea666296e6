#include "profile_trace.hpp"

#include "bindings.hpp"
#include "exit_code.hpp"

#include <backplane/execution.hpp>

#include <filesystem>
#include <fstream>
#include <memory>

namespace backplane::sdk_run {

void CheckProfilePath(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path folder = fs::path(path).parent_path();
  if (!folder.empty() && !fs::is_directory(folder)) {
    throw ToolError(ExitCode::kCannotWrite,
                    "--profile " + path + ": the folder " + folder.string() + " does not exist");
  }
  if (fs::is_directory(path)) {
    throw ToolError(ExitCode::kCannotWrite, "--profile " + path + ": is a folder, not a file");
  }
}

std::size_t WriteProfileTrace(const LoadedNetwork& network, const std::vector<HostTensor>& inputs,
                              const std::string& path) {
  const Bindings bound = MakeBindings(network.signature(), inputs);
  std::vector<ProfileEvent> events;
  try {
    ExecutionOptions options;
    options.profiling = true;
    const std::unique_ptr<ExecutionContext> context =
        network.runtime().CreateExecutionContext(network.id(), options);
    context->Run(bound.inputs, bound.outputs);
    events = context->GetProfile();
  } catch (const std::exception& error) {
    throw ToolError(ExitCode::kRuntimeFailure, std::string("the profiled run failed: ") + error.what());
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw ToolError(ExitCode::kCannotWrite, "--profile " + path + ": cannot create the file");
  WriteChromeTrace(events, out);
  out.close();
  if (!out) throw ToolError(ExitCode::kCannotWrite, "--profile " + path + ": writing the trace failed");
  return events.size();
}

}  // namespace backplane::sdk_run
