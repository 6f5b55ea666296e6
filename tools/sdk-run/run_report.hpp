// What sdk-run found out: the data its text and JSON outputs are made from.
#pragma once

#include "command_line.hpp"
#include "comparison.hpp"
#include "exit_code.hpp"
#include "expected_outputs.hpp"
#include "latency_stats.hpp"
#include "layer_table.hpp"
#include "loaded_network.hpp"
#include "value_summary.hpp"

#include <backplane/types.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace backplane::sdk_run {

struct InputReport {
  std::string name;
  TensorInfo info;
  std::string file;  // empty: random data from `seed`
};

struct ModelReport {
  std::string path;
  std::int64_t opset = 0;
  std::string producer;
  std::vector<InputReport> inputs;
  std::uint64_t seed = 0;
  double import_ms = 0;
};

struct OutputReport {
  std::string name;
  TensorInfo info;
  ValueSummary values;
  std::string file;  // written by --output-dir; empty otherwise
};

// A plain run (no --compare-backends). Value type.
struct RunReport {
  ModelReport model;
  std::vector<std::string> backends;  // the preference order used
  bool strict = false;
  int threads = 0;                    // 0: each backend's default
  BackendOptionValues backend_options; // --backend-option, by backend id ("*": every backend)
  int iterations = 0;
  double duration_s = 0;              // --duration; 0: not given
  int warmup = 0;
  int concurrency = 1;
  double optimize_ms = 0;
  double load_ms = 0;
  LatencyStats latency;
  LatencyLimit latency_limit;
  bool interrupted = false;           // SIGINT stopped the runs: the report covers those done
  double wall_ms = 0;
  double throughput = 0;              // runs per second, all contexts together
  PlacementReport placement;
  std::vector<OutputReport> outputs;
  double tolerance = 0;                // for `expected`
  std::vector<ExpectedOutput> expected;  // --expected, by output name; empty when interrupted
  std::string profile;                // the --profile file written; empty otherwise
  std::size_t profile_events = 0;
  // --profile or --per-layer: the timed runs were profiled (each one's per-layer events).
  bool profiled = false;
  std::size_t profiled_runs = 0;
  LayerSort per_layer_sort = LayerSort::kTime;
  std::vector<LayerTiming> per_layer;  // sorted by per_layer_sort; empty unless profiled

  // kInterrupted, else kAboveTolerance (an --expected output), else kAboveLatencyLimit, else kOk.
  ExitCode Status() const;
};

// One backend's side of a comparison.
struct ComparedRun {
  std::string backend;
  double optimize_ms = 0;
  double load_ms = 0;
  PlacementReport placement;
};

// A --compare-backends run. Value type.
struct CompareReport {
  ModelReport model;
  int threads = 0;
  BackendOptionValues backend_options;
  double tolerance = 0;
  ComparedRun a;
  ComparedRun b;  // the reference
  std::vector<OutputDifference> outputs;

  bool WithinTolerance() const;
  ExitCode Status() const { return WithinTolerance() ? ExitCode::kOk : ExitCode::kAboveTolerance; }
};

// Layers per backend in order of first appearance; layers with no backend (Input, Output,
// Constant) are not counted. Value type.
struct BackendCount {
  std::string backend;
  std::size_t layers = 0;
};
std::vector<BackendCount> CountByBackend(const PlacementReport& placement);

}  // namespace backplane::sdk_run
