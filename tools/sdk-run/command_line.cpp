#include "command_line.hpp"

#include "documentation.hpp"
#include "exit_code.hpp"
#include "layer_table.hpp"

#include <backplane/backend_id.hpp>
#include <backplane/runtime.hpp>  // kAllBackends
#include <backplane/version.hpp>

#include <boost/program_options.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <sstream>

namespace backplane::sdk_run {

namespace po = boost::program_options;

namespace {

// Raw option values; turned into a CommandLine by ParseCommandLine.
struct RawOptions {
  std::string backends;
  std::vector<std::string> pins;
  std::vector<std::string> inputs;
  std::vector<std::string> input_shapes;
  std::vector<std::string> input_sets;
  std::vector<std::string> expected_sets;
  int max_specializations = 8;
  std::vector<std::string> backend_options;
  std::vector<std::string> backend_versions;
  std::string seed = "0";
  std::string compare;
  std::vector<std::string> expected;
  std::string percentiles;
};

po::options_description Describe(CommandLine& into, RawOptions& raw) {
  po::options_description options("Options", 100, 50);
  options.add_options()
      ("help,h", po::bool_switch(&into.help), "print this help and exit")
      ("version", po::bool_switch(&into.version), "print the SDK and Backend API versions and exit")
      ("list-backends", po::bool_switch(&into.list_backends),
       "print the id of every registered, available backend, one per line, and exit")
      ("model,m", po::value<std::string>(&into.model)->value_name("FILE"),
       "the ONNX model to run (required)")
      ("backends,b", po::value<std::string>(&raw.backends)->value_name("A,B,..."),
       "backends in order of preference: each layer runs on the first that supports it. "
       "Default: every registered, available backend, in the default preference order (sdk-info shows it)")
      ("strict", po::bool_switch(&into.strict),
       "no fallback: every layer must run on the first of --backends (or its --pin)")
      ("pin", po::value<std::vector<std::string>>(&raw.pins)->value_name("LAYER=BACKEND")->composing(),
       "run LAYER on BACKEND, or fail; repeatable")
      ("input,i", po::value<std::vector<std::string>>(&raw.inputs)->value_name("NAME=FILE.npy")->composing(),
       "data for input NAME from a .npy file (its type and shape must be the input's); "
       "repeatable. Inputs without a file get random data (see --seed)")
      ("input-shape", po::value<std::vector<std::string>>(&raw.input_shapes)->value_name("NAME=D,D,...")
           ->composing(),
       "fix the shape of input NAME, e.g. x=1,3,224,224; required for inputs with a dynamic "
       "dimension; repeatable")
      ("input-set", po::value<std::vector<std::string>>(&raw.input_sets)
           ->value_name("NAME=FILE.npy,...")->composing(),
       "one set of input files, every input of the model once, each shape taken from its file; "
       "repeat for more sets (a FILE cannot contain ','). The sets run round-robin through one "
       "onnx::Session: one first run each (a new shape is imported, optimized and loaded then), "
       "--warmup untimed rounds, then --iterations timed rounds; the report gives each distinct "
       "shape's first-run cost and steady latency, and the shape cache's counts")
      ("expected-set", po::value<std::vector<std::string>>(&raw.expected_sets)
           ->value_name("NAME=FILE.npy,...")->composing(),
       "with --input-set: the reference outputs of the input set at the same position (as "
       "--expected does for one run); one per --input-set, in the same order")
      ("max-specializations", po::value<int>(&raw.max_specializations)->value_name("N")->default_value(8),
       "with --input-set: the loaded shapes the session keeps (its cache); the least recently "
       "used one is unloaded when a new shape needs room")
      ("seed", po::value<std::string>(&raw.seed)->value_name("N")->default_value("0"),
       "seed of the random inputs: f32 uniform in [-1, 1), every other type zeros")
      ("iterations,n", po::value<int>(&into.iterations)->value_name("N")->default_value(10),
       "timed runs per execution context (>= 1); with --duration, the least number of them "
       "(default 1 then)")
      ("duration", po::value<double>(&into.duration)->value_name("S"),
       "time the runs for S seconds (decimals allowed) instead of a count: each context keeps "
       "starting timed runs until S seconds have passed since the timed runs started and it has "
       "done --iterations runs (at least 1); a run that started is finished")
      ("percentiles", po::value<std::string>(&raw.percentiles)->value_name("P,P,...")
           ->default_value("50,90,99"),
       "latency percentiles to report (nearest rank), each above 0 and at most 100, e.g. "
       "50,90,99,99.9")
      ("max-latency-ms", po::value<double>(&into.max_latency_ms)->value_name("X"),
       "fail (exit 2) when the highest --percentiles latency (p99 by default) is above X "
       "milliseconds")
      ("warmup", po::value<int>(&into.warmup)->value_name("N")->default_value(1),
       "untimed runs per execution context before the timed ones (>= 0)")
      ("threads", po::value<int>(&into.threads)->value_name("N"),
       "intra-op threads: passed to every backend as the backend option threads=N. CpuRef is "
       "single-threaded and ignores it. Default: each backend's own")
      ("backend-option", po::value<std::vector<std::string>>(&raw.backend_options)
           ->value_name("ID:KEY=VALUE")->composing(),
       "pass the backend option KEY=VALUE to backend ID (RuntimeOptions::backend_options), "
       "e.g. CpuOneDnn:fast_math=1; ID * means every backend, and a backend's own value wins "
       "over the * one; repeatable")
      ("backend-version", po::value<std::vector<std::string>>(&raw.backend_versions)
           ->value_name("ID=RANGE")->composing(),
       "register backend ID only in a version of RANGE (RuntimeOptions::backend_versions): an "
       "exact version 1.2.3, a prefix 0.1.x, or comparators such as '>=1.0.0 <2.0.0'; when "
       "several copies of ID are installed, the highest version in RANGE wins; repeatable")
      ("path", po::value<std::vector<std::string>>(&into.paths)->value_name("DIR")->composing(),
       "also search DIR for backends, before the drop folders and the installation's own "
       "(RuntimeOptions::add_backend_paths, like BACKPLANE_ADD_BACKEND_PATHS); repeatable, in "
       "order. A relative DIR is taken from the current folder")
      ("concurrency", po::value<int>(&into.concurrency)->value_name("N")->default_value(1),
       "N execution contexts run in parallel threads, each doing --warmup and --iterations "
       "runs; throughput is the total")
      ("output-dir,o", po::value<std::string>(&into.output_dir)->value_name("DIR"),
       "write each output of the last run as DIR/NAME.npy (characters other than letters, "
       "digits, '.', '_' and '-' in NAME become '_'; with --input-set, DIR/set-N/NAME.npy per "
       "set); DIR is created if missing")
      ("compare-backends", po::value<std::string>(&raw.compare)->value_name("A,B"),
       "run the model on A alone and on B alone with the same inputs and print, per output, "
       "the largest absolute difference and that difference relative to the largest "
       "magnitude of B's output; exit 1 when a relative error is above --tolerance")
      ("expected", po::value<std::vector<std::string>>(&raw.expected)->value_name("NAME=FILE.npy")
           ->composing(),
       "compare output NAME of the last run (of the first context) with the reference in "
       "FILE.npy (same type and shape): print the largest absolute difference and that "
       "difference relative to the largest magnitude of the reference; exit 1 when a relative "
       "error is above --tolerance; repeatable")
      ("tolerance", po::value<double>(&into.tolerance)->value_name("X")->default_value(1e-4, "1e-4"),
       "largest relative error --compare-backends and --expected accept")
      ("profile", po::value<std::string>(&into.profile)->value_name("FILE.json"),
       "profile the timed runs and write one event per layer per timed run as a Chrome trace "
       "(chrome://tracing, ui.perfetto.dev; args: run, context, op, backend, shapes); also "
       "prints the per-layer table (see --per-layer). Profiling reads the clock twice per "
       "layer per run: expect latencies slightly above an unprofiled run's. The first 1000 "
       "timed runs of each context are profiled")
      ("per-layer", po::value<std::string>(&into.per_layer)->value_name("SORT")->implicit_value("time"),
       "profile the timed runs and print per layer its average time, share of the total, "
       "calls, backend, op type, GFLOP/s (convolution, MatMul, FullyConnected, and layers "
       "fused from them), the implementation its backend names, and why it fell back from the "
       "first preferred backend or runs a slow path, and how long its backend took to create it "
       "at load; SORT: time (slowest first, the default), name, order (execution order) or load "
       "(slowest to create first)")
      ("isolate", po::bool_switch(&into.isolate),
       "probe each new or changed plugin library in a child process before loading it; a "
       "library that crashes, hangs or exits there is not loaded, and stays quarantined (for "
       "every app using isolation) until the file changes. Verdicts are remembered in the "
       "per-user cache (BACKPLANE_PLUGIN_VERDICT_STORE)")
      ("isolate-timeout", po::value<double>(&into.isolate_timeout)->value_name("SECONDS")
           ->default_value(10),
       "with --isolate: how long one probe may take before it is killed")
      ("json", po::bool_switch(&into.json),
       "print one JSON document instead of text (shape: docs/sdk-run.md)")
      ("report", po::value<std::string>(&into.report_file)->value_name("FILE.json"),
       "also write the JSON document to FILE.json (replaced if it exists), whatever stdout "
       "shows; written on failures that have a report too (exit 1, 2, 130)")
      ("verbose,v", po::bool_switch(&into.verbose),
       "text output also lists every layer's placement with its reason, the non-direct edges "
       "and what the graph passes did");
  return options;
}

[[noreturn]] void Usage(const std::string& message) { throw ToolError(ExitCode::kUsage, message); }

// "A,B" -> {"A", "B"}; every item a well-formed backend id; none twice unless `allow_repeats`.
std::vector<std::string> ParseBackendList(const std::string& option, const std::string& text,
                                          bool allow_repeats) {
  if (text.empty() || text.back() == ',') {
    Usage(option + " '" + text + "': expected a comma-separated list of backend ids");
  }
  std::vector<std::string> ids;
  std::stringstream stream(text);
  std::string id;
  while (std::getline(stream, id, ',')) {
    if (!IsWellFormedBackendId(id)) {
      Usage(option + " " + text + ": '" + id +
            "' is not a backend id (1 to 64 letters and digits; list them with --list-backends)");
    }
    for (const std::string& earlier : ids) {
      if (earlier == id && !allow_repeats) Usage(option + " " + text + ": " + id + " is listed twice");
    }
    ids.push_back(id);
  }
  return ids;
}

// Splits "NAME=VALUE" at the first '=' (at the last one when `split_at_last`). Both parts must
// be non-empty.
std::pair<std::string, std::string> SplitNameValue(const std::string& option, const std::string& text,
                                                   const char* form, bool split_at_last) {
  const std::size_t at = split_at_last ? text.rfind('=') : text.find('=');
  if (at == std::string::npos || at == 0 || at + 1 == text.size()) {
    Usage(option + " '" + text + "': expected " + form);
  }
  return {text.substr(0, at), text.substr(at + 1)};
}

// "1,3,224,224" -> {1, 3, 224, 224}; every dimension a positive decimal integer.
std::vector<std::int64_t> ParseShape(const std::string& option, const std::string& text,
                                     const std::string& dims) {
  if (dims.back() == ',') {
    Usage(option + " '" + text + "': expected NAME=D,D,..., e.g. x=1,3,224,224");
  }
  std::vector<std::int64_t> shape;
  std::stringstream stream(dims);
  std::string dim;
  while (std::getline(stream, dim, ',')) {
    char* end = nullptr;
    errno = 0;
    const long long value = dim.empty() || dim[0] == '-' || dim[0] == '+'
                                ? 0
                                : std::strtoll(dim.c_str(), &end, 10);
    if (value <= 0 || errno != 0 || end == nullptr || *end != '\0') {
      Usage(option + " '" + text + "': dimension '" + dim +
            "' is not a positive integer (expected NAME=D,D,..., e.g. x=1,3,224,224)");
    }
    shape.push_back(value);
  }
  return shape;
}

// "--input-set" "a=x.npy,b=y.npy" (the `number`th such option) -> {a: x.npy, b: y.npy}: split at
// every ',' (a file name cannot contain one), each item NAME=FILE with both non-empty, no NAME twice.
std::map<std::string, std::string> ParseFileSet(const std::string& option, std::size_t number,
                                                const std::string& text) {
  const std::string where = option + " " + std::to_string(number) + " '" + text + "'";
  if (text.empty() || text.back() == ',') {
    Usage(where + ": expected NAME=FILE.npy[,NAME=FILE.npy...]");
  }
  std::map<std::string, std::string> files;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) {
    const std::size_t at = item.find('=');
    if (at == std::string::npos || at == 0 || at + 1 == item.size()) {
      Usage(where + ": '" + item + "' is not NAME=FILE.npy (a FILE cannot contain ',')");
    }
    const std::string name = item.substr(0, at);
    if (!files.emplace(name, item.substr(at + 1)).second) Usage(where + ": " + name + " is given twice");
  }
  return files;
}

// "ID:KEY=VALUE" -> into[ID][KEY] = VALUE. ID is "*" or a well-formed backend id; KEY and
// VALUE are not empty; an ID:KEY given twice is refused, and so is *:threads with --threads.
void ParseBackendOption(const std::string& text, bool threads_given, BackendOptionValues& into) {
  const char* form = "expected ID:KEY=VALUE, e.g. CpuOneDnn:fast_math=1 (ID * for every backend)";
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos || colon == 0) Usage("--backend-option '" + text + "': " + form);
  const std::string id = text.substr(0, colon);
  if (id != kAllBackends && !IsWellFormedBackendId(id)) {
    Usage("--backend-option '" + text + "': '" + id +
          "' is not a backend id (1 to 64 letters and digits, or * for every backend)");
  }
  const std::string option = text.substr(colon + 1);
  const std::size_t equals = option.find('=');
  if (equals == std::string::npos || equals == 0 || equals + 1 == option.size()) {
    Usage("--backend-option '" + text + "': " + form);
  }
  const std::string key = option.substr(0, equals);
  if (id == kAllBackends && key == "threads" && threads_given) {
    Usage("--backend-option '" + text + "': --threads already sets threads for every backend");
  }
  if (!into[id].emplace(key, option.substr(equals + 1)).second) {
    Usage("--backend-option '" + text + "': " + id + ":" + key + " is given twice");
  }
}

std::uint64_t ParseSeed(const std::string& text) {
  char* end = nullptr;
  errno = 0;
  const unsigned long long value =
      text.empty() || text[0] == '-' || text[0] == '+' ? 0 : std::strtoull(text.c_str(), &end, 10);
  if (text.empty() || text[0] == '-' || text[0] == '+' || errno != 0 || end == nullptr ||
      *end != '\0') {
    Usage("--seed '" + text + "': expected a non-negative integer below 2^64");
  }
  return value;
}

// "50,90,99.9" -> {50, 90, 99.9}, ascending; each a decimal number above 0 and at most 100
// (IsValidPercentile), none twice.
std::vector<double> ParsePercentiles(const std::string& text) {
  const std::string form = " (expected P,P,..., each above 0 and at most 100, e.g. 50,90,99,99.9)";
  if (text.empty() || text.back() == ',') Usage("--percentiles '" + text + "'" + form);
  std::vector<double> percents;
  std::stringstream stream(text);
  std::string item;
  while (std::getline(stream, item, ',')) {
    char* end = nullptr;
    errno = 0;
    const double value = item.empty() || std::isspace(static_cast<unsigned char>(item[0]))
                             ? 0
                             : std::strtod(item.c_str(), &end);
    if (errno != 0 || end == nullptr || *end != '\0' || !IsValidPercentile(value)) {
      Usage("--percentiles '" + text + "': '" + item + "' is not a percentile" + form);
    }
    if (std::find(percents.begin(), percents.end(), value) != percents.end()) {
      Usage("--percentiles '" + text + "': " + item + " is listed twice");
    }
    percents.push_back(value);
  }
  std::sort(percents.begin(), percents.end());
  return percents;
}

// A finite number above 0 and at most `maximum` for `option`, e.g. --duration or
// --max-latency-ms.
void RequirePositive(const char* option, double value, double maximum) {
  std::ostringstream message;
  message << option << " " << value << ": must be a finite number above 0";
  if (!std::isfinite(value) || value <= 0) Usage(message.str());
  message << " and at most " << maximum;
  if (value > maximum) Usage(message.str());
}

void RequireAtLeast(const char* option, int value, int minimum) {
  if (value < minimum) {
    Usage(std::string(option) + " " + std::to_string(value) + ": must be at least " +
          std::to_string(minimum));
  }
}

bool Given(const po::variables_map& values, const char* name) {
  return values.count(name) != 0 && !values[name].defaulted();
}

// A path option (--model, --output-dir, --profile, --report) given with no name, or with the
// next option where its name belongs ("--profile --per-layer" would write a file named
// "--per-layer"): a usage error saying what it needs (`what`: "a file name").
void RequirePathValue(const po::variables_map& values, const char* name, const std::string& value,
                      const std::string& what) {
  if (!Given(values, name)) return;
  const std::string option = std::string("--") + name;
  if (value.empty()) Usage(option + " needs " + what);
  if (value.rfind("--", 0) == 0) {
    Usage(option + " needs " + what + ", not the option " + value + " (write ./" + value + " for a path of that name)");
  }
}

// --input-set runs every set through one onnx::Session, one run at a time: options that feed
// one input set (--input, --input-shape, --seed), check one run's outputs (--expected), profile
// one loaded network (--profile, --per-layer, --verbose) or run
// contexts in parallel (--concurrency) are refused with it rather than half applied.
void CheckInputSetCombinations(const po::variables_map& values, const CommandLine& command_line) {
  if (command_line.input_sets.empty()) {
    for (const char* option : {"expected-set", "max-specializations"}) {
      if (Given(values, option)) Usage(std::string("--") + option + " applies to --input-set only");
    }
    return;
  }
  const std::pair<const char*, const char*> refused[] = {
      {"input", "each set gives every input's file"},
      {"input-shape", "each input's shape comes from its file"},
      {"seed", "every input comes from a file"},
      {"expected", "give one --expected-set per --input-set"},
      {"compare-backends", "compare backends with --input instead"},
      {"concurrency", "the sets run one at a time, round-robin"},
      {"profile", "profile one shape with --input"},
      {"per-layer", "profile one shape with --input"},
      {"verbose", "the placement of one shape is shown with --input --verbose"},
  };
  for (const auto& [option, why] : refused) {
    if (Given(values, option)) Usage(std::string("--input-set takes no --") + option + ": " + why);
  }
  if (!command_line.expected_sets.empty() &&
      command_line.expected_sets.size() != command_line.input_sets.size()) {
    Usage("--expected-set is given " + std::to_string(command_line.expected_sets.size()) + " times for " +
          std::to_string(command_line.input_sets.size()) +
          " --input-set: give one per input set, in the same order");
  }
}

// Options that make no sense with another one: refused rather than silently ignored.
void CheckCombinations(const po::variables_map& values, const CommandLine& command_line) {
  if (command_line.list_backends) {
    std::size_t given = 0;
    for (const auto& entry : values) given += entry.second.defaulted() ? 0 : 1;
    if (given > 1) Usage("--list-backends takes no other option");
    return;
  }
  if (command_line.model.empty()) Usage("--model FILE is required");

  if (!command_line.compare.empty()) {
    for (const char* other : {"backends", "pin", "iterations", "warmup", "concurrency",
                              "output-dir", "profile", "duration", "percentiles",
                              "max-latency-ms", "expected", "per-layer"}) {
      if (Given(values, other)) {
        Usage(std::string("--compare-backends runs each backend alone, once: it takes no --") +
              other);
      }
    }
    if (command_line.strict) Usage("--compare-backends runs each backend alone: it takes no --strict");
  } else if (Given(values, "tolerance") && command_line.expected_files.empty() &&
             command_line.expected_sets.empty()) {
    Usage("--tolerance applies to --compare-backends, --expected and --expected-set only");
  }
  CheckInputSetCombinations(values, command_line);
}

// The options given as lists of NAME=VALUE (or ID lists): parsed into `command_line`, each
// malformed or repeated entry a usage error naming it.
void ParseListOptions(const po::variables_map& values, const RawOptions& raw, CommandLine& command_line) {
  if (Given(values, "backends")) {
    command_line.backends = ParseBackendList("--backends", raw.backends, false);
  }
  for (const std::string& pin : raw.pins) {
    auto [layer, backend] = SplitNameValue("--pin", pin, "LAYER=BACKEND", true);
    if (!IsWellFormedBackendId(backend)) {
      Usage("--pin '" + pin + "': '" + backend + "' is not a backend id");
    }
    if (!command_line.pins.emplace(layer, backend).second) {
      Usage("--pin '" + pin + "': layer " + layer + " is pinned twice");
    }
  }
  for (const std::string& input : raw.inputs) {
    auto [name, file] = SplitNameValue("--input", input, "NAME=FILE.npy", false);
    if (!command_line.input_files.emplace(name, file).second) {
      Usage("--input '" + input + "': input " + name + " is given twice");
    }
  }
  for (const std::string& text : raw.input_shapes) {
    auto [name, dims] = SplitNameValue("--input-shape", text, "NAME=D,D,...", true);
    if (!command_line.input_shapes.emplace(name, ParseShape("--input-shape", text, dims)).second) {
      Usage("--input-shape '" + text + "': input " + name + " is given twice");
    }
  }
  for (const std::string& text : raw.backend_versions) {
    auto [id, range] = SplitNameValue("--backend-version", text, "ID=RANGE", false);
    if (!IsWellFormedBackendId(id)) Usage("--backend-version '" + text + "': '" + id + "' is not a backend id");
    if (!command_line.backend_versions.emplace(id, range).second) {
      Usage("--backend-version '" + text + "': backend " + id + " is given twice");
    }
  }
  for (const std::string& text : raw.backend_options) {
    ParseBackendOption(text, Given(values, "threads"), command_line.backend_options);
  }
  command_line.seed = ParseSeed(raw.seed);
  for (const std::string& text : raw.expected) {
    auto [name, file] = SplitNameValue("--expected", text, "NAME=FILE.npy", false);
    if (!command_line.expected_files.emplace(name, file).second) {
      Usage("--expected '" + text + "': output " + name + " is given twice");
    }
  }
  for (std::size_t i = 0; i < raw.input_sets.size(); ++i) {
    command_line.input_sets.push_back(ParseFileSet("--input-set", i + 1, raw.input_sets[i]));
  }
  for (std::size_t i = 0; i < raw.expected_sets.size(); ++i) {
    command_line.expected_sets.push_back(ParseFileSet("--expected-set", i + 1, raw.expected_sets[i]));
  }
}

// The ranges of the numeric options and the path options' values: a usage error naming the option.
void CheckRangesAndPaths(const po::variables_map& values, CommandLine& command_line) {
  RequireAtLeast("--iterations", command_line.iterations, 1);
  RequireAtLeast("--warmup", command_line.warmup, 0);
  RequireAtLeast("--concurrency", command_line.concurrency, 1);
  if (Given(values, "threads")) RequireAtLeast("--threads", command_line.threads, 1);
  if (!std::isfinite(command_line.tolerance) || command_line.tolerance < 0) {
    Usage("--tolerance " + std::to_string(command_line.tolerance) +
          ": must be a finite number >= 0");
  }
  if (Given(values, "isolate-timeout") && !command_line.isolate) {
    Usage("--isolate-timeout applies to --isolate only");
  }
  if (!(command_line.isolate_timeout > 0) || command_line.isolate_timeout > 86400) {
    Usage("--isolate-timeout needs a number of seconds above 0 and at most 86400");
  }
  RequirePathValue(values, "model", command_line.model, "a file name");
  RequirePathValue(values, "output-dir", command_line.output_dir, "a folder name");
  RequirePathValue(values, "profile", command_line.profile, "a file name");
  if (Given(values, "per-layer") && !LayerSortFromString(command_line.per_layer)) {
    Usage("--per-layer " + command_line.per_layer + ": expected time, name, order or load");
  }
}

}  // namespace

CommandLine ParseCommandLine(int argc, const char* const argv[]) {
  CommandLine command_line;
  RawOptions raw;
  const po::options_description options = Describe(command_line, raw);
  // Positional arguments are collected only to name them in the error.
  std::vector<std::string> stray;
  po::options_description all;
  all.add(options).add_options()("stray", po::value<std::vector<std::string>>(&stray));
  po::positional_options_description positional;
  positional.add("stray", -1);
  po::variables_map values;
  try {
    const int style = po::command_line_style::default_style &
                      ~po::command_line_style::allow_guessing;
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).style(style).run(),
              values);
    po::notify(values);
  } catch (const po::error& error) {
    Usage(error.what());
  }
  if (!stray.empty()) {
    Usage("unexpected argument '" + stray.front() + "' (every value follows its option, e.g. --model FILE)");
  }
  if (command_line.help || command_line.version) return command_line;

  ParseListOptions(values, raw, command_line);
  RequireAtLeast("--max-specializations", raw.max_specializations, 1);
  command_line.max_specializations = static_cast<std::size_t>(raw.max_specializations);
  command_line.percentiles = ParsePercentiles(raw.percentiles);
  if (Given(values, "duration")) {
    RequirePositive("--duration", command_line.duration, 1e7);  // seconds: 115 days
    if (!Given(values, "iterations")) command_line.iterations = 1;
  }
  if (Given(values, "max-latency-ms")) {
    RequirePositive("--max-latency-ms", command_line.max_latency_ms, 1e12);
  }
  RequirePathValue(values, "report", command_line.report_file, "a file name");
  if (Given(values, "compare-backends")) {
    command_line.compare = ParseBackendList("--compare-backends", raw.compare, true);
    if (command_line.compare.size() != 2) {
      Usage("--compare-backends " + raw.compare + ": expected exactly two backends, A,B");
    }
  }

  CheckRangesAndPaths(values, command_line);
  CheckCombinations(values, command_line);
  return command_line;
}

std::string HelpText() {
  CommandLine unused;
  RawOptions unused_raw;
  std::ostringstream text;
  text << "Usage: sdk-run --model FILE.onnx [--backends A,B,...] [--strict] [--pin LAYER=BACKEND]...\n"
          "               [--input NAME=FILE.npy]... [--input-shape NAME=D,D,...]... [--seed N]\n"
          "               [--iterations N] [--duration S] [--warmup N] [--threads N]\n"
          "               [--concurrency N] [--percentiles P,P,...] [--max-latency-ms X]\n"
          "               [--expected NAME=FILE.npy]... [--tolerance X]\n"
          "               [--backend-option ID:KEY=VALUE]... [--backend-version ID=RANGE]...\n"
          "               [--path DIR]... [--output-dir DIR]\n"
          "               [--profile FILE.json] [--per-layer [SORT]]\n"
          "               [--isolate [--isolate-timeout S]] [--json]\n"
          "               [--report FILE.json] [--verbose]\n"
          "       sdk-run --model FILE.onnx --input-set NAME=FILE.npy,... [--input-set ...]...\n"
          "               [--expected-set NAME=FILE.npy,...]... [--tolerance X]\n"
          "               [--max-specializations N] [--backends A,B,...] [--strict] [--pin ...]\n"
          "               [--iterations N] [--duration S] [--warmup N] [--threads N]\n"
          "               [--percentiles P,P,...] [--max-latency-ms X] [--backend-option ...]\n"
          "               [--output-dir DIR] [--json] [--report FILE.json]\n"
          "       sdk-run --model FILE.onnx --compare-backends A,B [--tolerance X] [--input ...]\n"
          "               [--input-shape ...] [--seed N] [--threads N] [--backend-option ...]\n"
          "               [--json] [--report FILE.json]\n"
          "       sdk-run --list-backends | --help | --version\n"
          "\n"
          "Imports an ONNX model, places its layers on the backends, loads it, runs it and\n"
          "reports the import, optimize and load times, the latency percentiles, the\n"
          "throughput, where each layer runs and how many copies run between backends.\n"
          "\n"
       << Describe(unused, unused_raw)
       << "\n"
          "Exit status:\n"
          "  0   ok\n"
          "  1   --compare-backends, --expected or --expected-set: some output differs by\n"
          "      more than --tolerance\n"
          "  2   --max-latency-ms: the highest reported percentile (of some shape, with\n"
          "      --input-set) is above the limit\n"
          "  64  usage error: unknown or malformed option, bad NAME=VALUE or ID:KEY=VALUE,\n"
          "      unknown backend, unknown --pin layer\n"
          "  65  bad model: file missing, unreadable, malformed or unsupported (the message\n"
          "      lists every unsupported node), a dynamic dimension without --input-shape, or\n"
          "      an --input-shape the model rejects\n"
          "  66  bad input data: --input, --expected, --input-set or --expected-set .npy file\n"
          "      missing or malformed, wrong shape or type, unknown input or output name, an\n"
          "      input set without a file for some input\n"
          "  70  runtime failure: no backend, placement or load failed, a run failed\n"
          "  73  cannot write an --output-dir file, the --profile trace, the --report file or\n"
          "      stdout\n"
          "  130 interrupted (Ctrl-C, SIGINT) during the runs: the runs stop and the report of\n"
          "      the runs done so far is printed (--output-dir and --expected are skipped)\n"
          "Messages go to stderr and say what was wrong and where. On a terminal (stderr),\n"
          "without --json, a progress line shows the import, the load and the runs.\n"
          "\n"
          "Environment:\n"
          "  BACKPLANE_BACKEND_PATHS  backend folders to search\n"
          "  BACKPLANE_LOG            runtime log categories to stderr, e.g. optimize:info\n"
          "  BACKPLANE_PLUGIN_VERDICT_STORE  folder of the --isolate verdicts (default: the\n"
          "                           per-user cache, ~/.cache/backplane/plugin-verdicts)\n"
          "  NO_COLOR                 when set and not empty, no colour even on a terminal\n"
          "  TERM                     when \"dumb\", no colour even on a terminal\n"
          "\n"
          "More: " << tools::DocumentationPath("sdk-run.md") << "\n";
  return text.str();
}

std::string VersionText() {
  return "sdk-run (Backplane SDK " + ToString(kSdkVersion) + ")\nBackend API " +
         ToString(kBackendApiVersion) + "\n";
}

}  // namespace backplane::sdk_run
