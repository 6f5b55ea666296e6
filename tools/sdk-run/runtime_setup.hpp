// The runtime sdk-run works with, and the checks of backend names against it.
#pragma once

#include "command_line.hpp"

#include <backplane/runtime.hpp>

#include <memory>
#include <string>
#include <vector>

namespace backplane::sdk_run {

// Creates a runtime as an application would (default search folders, BACKPLANE_BACKEND_PATHS).
// --threads > 0: every backend gets the backend option {"threads": "<threads>"} (through the
// kAllBackends key). --backend-option values are added by backend id, "*" being kAllBackends;
// the runtime lets a backend's own value win over the "*" one. --isolate turns on
// RuntimeOptions::isolation with --isolate-timeout. Throws ToolError (kRuntimeFailure) when no
// backend registers, with the runtime's account of where it looked and why each candidate was
// rejected.
std::unique_ptr<Runtime> CreateRuntime(const CommandLine& command_line);

// Ids of the registered backends that are available, in registration order.
std::vector<std::string> AvailableBackends(const Runtime& runtime);

// Throws ToolError (kUsage) when an id that `option` gave is not a registered, available
// backend, listing the ones that are.
void RequireBackends(const Runtime& runtime, const std::string& option,
                     const std::vector<std::string>& ids);

// The backend preference order a run uses: --backends, else every available backend.
std::vector<std::string> UsedBackends(const Runtime& runtime, const CommandLine& command_line);

// RequireBackends for the backends --backends and --pin name.
void RequirePlacementBackends(const Runtime& runtime, const CommandLine& command_line);

// --backends, --strict and --pin as OptimizeOptions.
OptimizeOptions MakeOptimizeOptions(const CommandLine& command_line);

}  // namespace backplane::sdk_run
