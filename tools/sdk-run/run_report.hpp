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

#include <backplane/onnx_session.hpp>
#include <backplane/types.hpp>

#include <cstdint>
#include <string>
#include <utility>
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

// --input-set: one set of input files and how its runs went. Value type.
struct InputSetReport {
  std::vector<InputReport> inputs;  // in the model's order, each with its file
  std::size_t shape = 0;            // index into SetsReport::shapes
  std::size_t runs = 0;             // Session::Run calls: first, warmup and timed
  double first_run_ms = 0;          // the set's first Session::Run (0 when it never ran)
  // Its first run imported, optimized and loaded a new specialization (the shape was new), and
  // that took specialize_ms (SessionStats::last_specialization_ms); false: the cache served it.
  bool specialized = false;
  double specialize_ms = 0;
  std::vector<OutputReport> outputs;     // its last run's (file: --output-dir DIR/set-N/NAME.npy)
  std::vector<ExpectedOutput> expected;  // --expected-set, by output; empty when interrupted
};

// The sets whose inputs have the same types and shapes: one specialization of the session.
struct ShapeReport {
  std::vector<InputReport> inputs;  // name and info, no file
  std::vector<std::size_t> sets;    // indices into SetsReport::sets, ascending
  double first_run_ms = 0;          // the first run of its first set, which specialized it
  double specialize_ms = 0;         // of that run: import + optimize + load
  LatencyStats steady;              // the timed runs the cache served
  LatencyLimit latency_limit;       // --max-latency-ms against `steady`
  // Timed runs that specialized the shape again (it had been unloaded to make room for another:
  // --max-specializations is below the number of shapes); not in `steady`.
  std::size_t reloads = 0;
  double reload_mean_ms = 0;
};

// An --input-set run. Value type.
struct SetsReport {
  std::string model;                  // --model, as given
  double open_ms = 0;                 // onnx::Session::Open: read, parse and check the model
  std::vector<std::string> backends;  // the preference order used
  bool strict = false;
  int threads = 0;
  BackendOptionValues backend_options;
  int iterations = 0;                 // timed rounds (with duration_s: at least)
  double duration_s = 0;
  int warmup = 0;                     // untimed rounds after the first one
  std::size_t rounds = 0;             // timed rounds done
  std::size_t max_specializations = 0;
  std::vector<InputSetReport> sets;
  std::vector<ShapeReport> shapes;    // in order of first appearance
  onnx::SessionStats cache;           // the session's counters after the runs
  bool interrupted = false;
  double wall_ms = 0;                 // the timed rounds, first start to last end
  double throughput = 0;              // timed runs per second over wall_ms
  double tolerance = 0;

  // kInterrupted, else kAboveTolerance (an --expected-set output), else kAboveLatencyLimit (a
  // shape's), else kOk.
  ExitCode Status() const;
};

// The settings a RunReport and a SetsReport both repeat from the command line: `backends` (the
// preference order used), --strict, --threads, --backend-option, --iterations, --duration,
// --warmup.
template <typename Report>
void CopyRunSettings(const CommandLine& command_line, std::vector<std::string> backends, Report& report) {
  report.backends = std::move(backends);
  report.strict = command_line.strict;
  report.threads = command_line.threads;
  report.backend_options = command_line.backend_options;
  report.iterations = command_line.iterations;
  report.duration_s = command_line.duration;
  report.warmup = command_line.warmup;
}

// Layers per backend in order of first appearance; layers with no backend (Input, Output,
// Constant) are not counted. Value type.
struct BackendCount {
  std::string backend;
  std::size_t layers = 0;
};
std::vector<BackendCount> CountByBackend(const PlacementReport& placement);

}  // namespace backplane::sdk_run
