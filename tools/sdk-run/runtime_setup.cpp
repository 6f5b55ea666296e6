#include "runtime_setup.hpp"

#include "exit_code.hpp"

#include <backplane/path_text.hpp>

#include <filesystem>
#include <optional>

namespace backplane::sdk_run {

namespace {

std::unique_ptr<Runtime> Create(const RuntimeOptions& options) {
  try {
    return Runtime::Create(options);
  } catch (const NoBackendsError& error) {
    throw ToolError(ExitCode::kRuntimeFailure,
                    std::string("no backend registered (run sdk-info for details): ") + error.what());
  } catch (const Exception& error) {
    // A backend option the backend does not declare, a value of the wrong type, a version
    // range that does not parse: the command line's fault.
    if (error.code() == ErrorCode::kInvalidArgument) {
      throw ToolError(ExitCode::kUsage, std::string("the runtime refused the command line: ") + error.what());
    }
    throw ToolError(ExitCode::kRuntimeFailure,
                    std::string("the runtime could not start: ") + error.what());
  }
}

}  // namespace

std::unique_ptr<Runtime> CreateRuntime(const CommandLine& command_line) {
  RuntimeOptions options;
  if (command_line.threads > 0) {
    options.backend_options[BackendId(kAllBackends)]["threads"] = std::to_string(command_line.threads);
  }
  for (const auto& [id, values] : command_line.backend_options) {
    for (const auto& [key, value] : values) options.backend_options[BackendId(id)][key] = value;
  }
  for (const auto& [id, range] : command_line.backend_versions) options.backend_versions[BackendId(id)] = range;
  for (const auto& path : command_line.paths) {
    options.add_backend_paths.push_back(PathToUtf8(std::filesystem::absolute(PathFromUtf8(path)).lexically_normal()));
  }
  options.isolation.enabled = command_line.isolate;
  options.isolation.timeout_seconds = command_line.isolate_timeout;
  return Create(options);
}

std::vector<std::string> AvailableBackends(const Runtime& runtime) {
  std::vector<std::string> ids;
  for (const BackendInfo& backend : runtime.GetBackends()) {
    if (backend.available) ids.push_back(backend.id.Get());
  }
  return ids;
}

void RequireBackends(const Runtime& runtime, const std::string& option,
                     const std::vector<std::string>& ids) {
  for (const std::string& id : ids) {
    // Asks the named backend only: the others' devices stay untouched (Runtime::GetBackend).
    const std::optional<BackendInfo> backend = runtime.GetBackend(BackendId(id));
    if (backend && backend->available) continue;
    const std::string why =
        backend ? "is registered but unavailable: " + backend->unavailable_reason : "is not registered";
    std::string known;
    for (const std::string& name : AvailableBackends(runtime)) known += (known.empty() ? "" : ", ") + name;
    throw ToolError(ExitCode::kUsage, option + ": backend " + id + " " + why +
                                          " (available: " + (known.empty() ? "none" : known) +
                                          "; sdk-info says why others are missing)");
  }
}

std::vector<std::string> UsedBackends(const Runtime& runtime, const CommandLine& command_line) {
  return command_line.backends.empty() ? AvailableBackends(runtime) : command_line.backends;
}

void RequirePlacementBackends(const Runtime& runtime, const CommandLine& command_line) {
  RequireBackends(runtime, "--backends", command_line.backends);
  std::vector<std::string> pinned;
  for (const auto& [layer, backend] : command_line.pins) pinned.push_back(backend);
  RequireBackends(runtime, "--pin", pinned);
}

OptimizeOptions MakeOptimizeOptions(const CommandLine& command_line) {
  OptimizeOptions options;
  for (const std::string& id : command_line.backends) options.backends.emplace_back(id);
  options.strict = command_line.strict;
  for (const auto& [layer, backend] : command_line.pins) options.pins.emplace(layer, backend);
  return options;
}

}  // namespace backplane::sdk_run
