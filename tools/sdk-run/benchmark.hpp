// The timed runs: one or more execution contexts, each in its own thread.
#pragma once

#include "bindings.hpp"
#include "host_tensor.hpp"
#include "latency_stats.hpp"
#include "loaded_network.hpp"
#include "timed_profile.hpp"

#include <vector>

namespace backplane::sdk_run {

struct BenchmarkSettings {
  int iterations = 10;   // timed runs per context (with duration_s: at least this many)
  double duration_s = 0; // > 0: each context starts timed runs until this long after they began
  int warmup = 1;        // untimed runs per context, before any timed run of any context
  int concurrency = 1;   // contexts, one thread each
  bool show_progress = false;  // a progress line on stderr (stderr is a terminal, no --json)
  bool stop_on_interrupt = false;  // SIGINT stops the runs (InterruptScope) instead of the process
  bool profiling = false;      // record every timed run's per-step times (ExecutionOptions::profiling)
};

struct BenchmarkResult {
  LatencyRecorder latency;           // every timed run of every context
  double wall_ms = 0;                // from the first timed run's start to the last one's end
  double throughput = 0;             // timed runs per second over wall_ms, all contexts together
  std::vector<HostTensor> outputs;   // the first context's last run, in signature order
  TimedProfile profile;              // with settings.profiling: the first kMaxProfiledRunsPerContext
                                     // timed runs of every context
  bool interrupted = false;          // SIGINT stopped the runs: the results cover those done
};

// Creates settings.concurrency contexts of `network`, binds `inputs` (shared, read-only) and
// per-context outputs, and runs: every context its warmup runs, then (all starting together)
// its timed runs: settings.iterations of them, or with settings.duration_s, as many as start
// within that time and at least settings.iterations. With settings.stop_on_interrupt, SIGINT
// stops every context after its current run (`interrupted`). Throws ToolError (kBadInput)
// when an input does not fit the signature and (kRuntimeFailure) naming the context and run
// when a run fails; the other contexts stop early then.
BenchmarkResult RunBenchmark(const LoadedNetwork& network, const std::vector<HostTensor>& inputs,
                             const BenchmarkSettings& settings);

// Runs the network once in a fresh context, for a comparison: the outputs in signature order.
// Errors as above.
std::vector<HostTensor> RunOnce(const LoadedNetwork& network, const std::vector<HostTensor>& inputs);

}  // namespace backplane::sdk_run
