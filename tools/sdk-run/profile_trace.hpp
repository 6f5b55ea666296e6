// --profile: one profiled run, written as a Chrome trace.
#pragma once

#include "host_tensor.hpp"
#include "loaded_network.hpp"

#include <string>
#include <vector>

namespace backplane::sdk_run {

// Checks, before any run, that `path` can become the trace: its folder exists and it is not a
// folder itself. Throws ToolError (kCannotWrite) naming the path otherwise.
void CheckProfilePath(const std::string& path);

// Runs `network` once more in a fresh context with profiling on and writes the run's events
// to `path` with WriteChromeTrace ({"traceEvents": [...]}). Returns the number of events.
// Throws ToolError (kRuntimeFailure) when the run fails and (kCannotWrite) naming the file
// when it cannot be written.
std::size_t WriteProfileTrace(const LoadedNetwork& network, const std::vector<HostTensor>& inputs,
                              const std::string& path);

}  // namespace backplane::sdk_run
