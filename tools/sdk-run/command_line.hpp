// sdk-run's command line: what the user asked for.
#pragma once

#include "latency_stats.hpp"

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace backplane::sdk_run {

// --backend-option values: backend id (or "*", every backend) -> option key -> value.
using BackendOptionValues = std::map<std::string, std::map<std::string, std::string>>;

struct CommandLine {
  bool help = false;
  bool version = false;
  bool list_backends = false;  // print the registered, available backend ids and exit
  bool json = false;
  bool verbose = false;        // per-layer placement, edges and graph passes in the text output

  std::string model;                       // --model, as given
  std::vector<std::string> backends;       // --backends, in order; empty: all registered
  bool strict = false;
  std::map<std::string, std::string> pins; // --pin LAYER=BACKEND
  std::map<std::string, std::string> input_files;                // --input NAME=FILE.npy
  std::map<std::string, std::vector<std::int64_t>> input_shapes; // --input-shape NAME=D,D,...
  // --input-set NAME=FILE.npy[,NAME=FILE.npy...], one per option, in the order given: the sets
  // run round-robin through one onnx::Session (each input's shape from its file).
  std::vector<std::map<std::string, std::string>> input_sets;
  // --expected-set NAME=FILE.npy[,...]: the reference outputs of the --input-set of the same
  // position; empty, or exactly one per input set.
  std::vector<std::map<std::string, std::string>> expected_sets;
  std::size_t max_specializations = 8;  // --max-specializations N: the session's shape cache
  std::uint64_t seed = 0;

  int iterations = 10;  // with --duration: the least number of timed runs per context, default 1
  double duration = 0;  // --duration S: timed runs go on until S seconds have passed; 0: not given
  int warmup = 1;
  int threads = 0;      // 0: not given, each backend's default
  BackendOptionValues backend_options;     // --backend-option ID:KEY=VALUE ("*": every backend)
  std::map<std::string, std::string> backend_versions;  // --backend-version ID=RANGE
  std::vector<std::string> paths;          // --path DIR: searched first (an added layer)
  int concurrency = 1;

  std::string output_dir;                  // empty: outputs are not written
  std::string profile;                     // --profile FILE.json: empty when not given
  std::string per_layer;                   // --per-layer SORT ("time", "name", "order"); empty: not given
  std::vector<std::string> compare;        // --compare-backends A,B: empty or exactly two
  double tolerance = 1e-4;                 // for --compare-backends and --expected
  std::map<std::string, std::string> expected_files;  // --expected NAME=FILE.npy
  std::vector<double> percentiles = kDefaultPercentiles;  // --percentiles, ascending, no repeats
  double max_latency_ms = 0;               // --max-latency-ms X: 0 when not given
  std::string report_file;                 // --report FILE: the JSON report also goes there

  // --isolate: RuntimeOptions::isolation (probe new or changed plugin libraries in a child
  // process, remember the verdicts); --isolate-timeout: its per-probe time limit.
  bool isolate = false;
  double isolate_timeout = 10;
};

// Parses argv with Boost.Program_options. Options must be spelled out (no abbreviations);
// positional arguments are refused. Checks every value (NAME=VALUE forms, shapes, counts, backend
// id spelling, combinations such as --compare-backends with --backends) but nothing that needs
// the runtime or the model. Throws ToolError (kUsage) naming the option and the value.
CommandLine ParseCommandLine(int argc, const char* const argv[]);

// The --help and --version texts, each ending in a newline.
std::string HelpText();
std::string VersionText();

}  // namespace backplane::sdk_run
