// What sdk-run found out: the data its text and JSON outputs are made from.
#pragma once

#include "command_line.hpp"
#include "comparison.hpp"
#include "exit_code.hpp"
#include "latency_stats.hpp"
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
  int warmup = 0;
  int concurrency = 1;
  double optimize_ms = 0;
  double load_ms = 0;
  LatencyStats latency;
  double wall_ms = 0;
  double throughput = 0;              // runs per second, all contexts together
  PlacementReport placement;
  std::vector<OutputReport> outputs;
  std::string profile;                // the --profile file written; empty otherwise
  std::size_t profile_events = 0;
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
