// The timed runs: one or more execution contexts, each in its own thread.
#pragma once

#include "bindings.hpp"
#include "host_tensor.hpp"
#include "loaded_network.hpp"

#include <vector>

namespace backplane::sdk_run {

struct BenchmarkSettings {
  int iterations = 10;   // timed runs per context
  int warmup = 1;        // untimed runs per context, before any timed run of any context
  int concurrency = 1;   // contexts, one thread each
  bool show_progress = false;  // a progress line on stdout (stdout is a terminal)
};

struct BenchmarkResult {
  std::vector<double> latencies_ms;  // every timed run of every context
  double wall_ms = 0;                // from the first timed run's start to the last one's end
  double throughput = 0;             // timed runs per second over wall_ms, all contexts together
  std::vector<HostTensor> outputs;   // the first context's last run, in signature order
};

// Creates settings.concurrency contexts of `network`, binds `inputs` (shared, read-only) and
// per-context outputs, and runs: every context its warmup runs, then (all starting together)
// its timed runs. Throws ToolError (kBadInput) when an input does not fit the signature and
// (kRuntimeFailure) naming the context and run when a run fails; the other contexts stop early
// then.
BenchmarkResult RunBenchmark(const LoadedNetwork& network, const std::vector<HostTensor>& inputs,
                             const BenchmarkSettings& settings);

// Runs the network once in a fresh context, for a comparison: the outputs in signature order.
// Errors as above.
std::vector<HostTensor> RunOnce(const LoadedNetwork& network, const std::vector<HostTensor>& inputs);

}  // namespace backplane::sdk_run
