#include "command_line.hpp"

#include "exit_code.hpp"

#include <doctest/doctest.h>

#include <map>
#include <string>
#include <vector>

namespace backplane::sdk_run {
namespace {

CommandLine Parse(std::vector<std::string> arguments) {
  arguments.insert(arguments.begin(), "sdk-run");
  std::vector<const char*> argv;
  for (const std::string& argument : arguments) argv.push_back(argument.c_str());
  return ParseCommandLine(static_cast<int>(argv.size()), argv.data());
}

// The ToolError's message when parsing fails with a usage error; "" when it succeeds.
std::string UsageError(const std::vector<std::string>& arguments) {
  try {
    Parse(arguments);
  } catch (const ToolError& error) {
    CHECK(error.code() == ExitCode::kUsage);
    return error.what();
  }
  return "";
}

TEST_CASE("--backend-option ID:KEY=VALUE is collected by backend id, * included") {
  const CommandLine command_line =
      Parse({"--model", "m.onnx", "--backend-option", "CpuOneDnn:fast_math=1", "--backend-option",
             "*:verbose=yes", "--backend-option", "CpuOneDnn:threads=1", "--backend-option",
             "CpuRef:path=a=b:c", "--threads", "2"});
  const BackendOptionValues expected = {
      {"*", {{"verbose", "yes"}}},
      {"CpuOneDnn", {{"fast_math", "1"}, {"threads", "1"}}},
      {"CpuRef", {{"path", "a=b:c"}}},  // split at the first ':' and the first '='
  };
  CHECK(command_line.backend_options == expected);
  CHECK(command_line.threads == 2);
}

TEST_CASE("--backend-option is allowed with --compare-backends") {
  const CommandLine command_line = Parse({"--model", "m.onnx", "--compare-backends", "CpuOneDnn,CpuRef",
                                          "--backend-option", "CpuOneDnn:fast_math=1"});
  CHECK(command_line.backend_options.at("CpuOneDnn").at("fast_math") == "1");
}

TEST_CASE("malformed --backend-option values are usage errors naming the option and value") {
  struct Case {
    std::vector<std::string> arguments;
    const char* message;
  };
  const Case cases[] = {
      {{"--backend-option", "fast_math=1"}, "--backend-option 'fast_math=1': expected ID:KEY=VALUE"},
      {{"--backend-option", ":fast_math=1"}, "--backend-option ':fast_math=1': expected ID:KEY=VALUE"},
      {{"--backend-option", "CpuOneDnn:fast_math"}, "--backend-option 'CpuOneDnn:fast_math': expected"},
      {{"--backend-option", "CpuOneDnn:=1"}, "--backend-option 'CpuOneDnn:=1': expected"},
      {{"--backend-option", "CpuOneDnn:fast_math="}, "--backend-option 'CpuOneDnn:fast_math=': expected"},
      {{"--backend-option", "Cpu-One:fast_math=1"}, "'Cpu-One' is not a backend id"},
      {{"--backend-option", "**:fast_math=1"}, "'**' is not a backend id"},
      {{"--backend-option", "CpuRef:a=1", "--backend-option", "CpuRef:a=2"},
       "--backend-option 'CpuRef:a=2': CpuRef:a is given twice"},
      {{"--threads", "2", "--backend-option", "*:threads=4"},
       "--backend-option '*:threads=4': --threads already sets threads for every backend"},
      {{"--backend-option"}, "backend-option"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> arguments = {"--model", "m.onnx"};
    arguments.insert(arguments.end(), c.arguments.begin(), c.arguments.end());
    const std::string message = UsageError(arguments);
    INFO("message: " << message);
    CHECK(message.find(c.message) != std::string::npos);
  }
}

TEST_CASE("--help describes --backend-option") {
  CHECK(HelpText().find("--backend-option ID:KEY=VALUE") != std::string::npos);
}

TEST_CASE("--per-layer takes an optional sort, time by default") {
  CHECK(Parse({"--model", "m.onnx"}).per_layer.empty());
  CHECK(Parse({"--model", "m.onnx", "--per-layer"}).per_layer == "time");
  CHECK(Parse({"--model", "m.onnx", "--per-layer", "name"}).per_layer == "name");
  CHECK(Parse({"--model", "m.onnx", "--per-layer=order"}).per_layer == "order");
  CHECK(UsageError({"--model", "m.onnx", "--per-layer=fastest"}) ==
        "--per-layer fastest: expected time, name, order or load");
  CHECK(UsageError({"--model", "m.onnx", "--compare-backends", "A,B", "--per-layer"}) ==
        "--compare-backends runs each backend alone, once: it takes no --per-layer");
}

TEST_CASE("--duration: seconds with decimals, -n becomes the least number of runs, 1 by default") {
  const CommandLine timed = Parse({"--model", "m.onnx", "--duration", "1.5"});
  CHECK(timed.duration == 1.5);
  CHECK(timed.iterations == 1);
  const CommandLine both = Parse({"--model", "m.onnx", "--duration", "0.25", "-n", "7"});
  CHECK(both.duration == 0.25);
  CHECK(both.iterations == 7);
  const CommandLine counted = Parse({"--model", "m.onnx"});
  CHECK(counted.duration == 0);
  CHECK(counted.iterations == 10);
  CHECK(UsageError({"--model", "m.onnx", "--duration", "0"}) ==
        "--duration 0: must be a finite number above 0");
  CHECK(UsageError({"--model", "m.onnx", "--duration", "-1"}) ==
        "--duration -1: must be a finite number above 0");
  CHECK(UsageError({"--model", "m.onnx", "--duration", "inf"}) ==
        "--duration inf: must be a finite number above 0");
  CHECK(UsageError({"--model", "m.onnx", "--duration", "soon"}).find("duration") != std::string::npos);
  CHECK(UsageError({"--model", "m.onnx", "--duration", "2e7"}) ==
        "--duration 2e+07: must be a finite number above 0 and at most 1e+07");
}

TEST_CASE("--percentiles: ascending, each above 0 and at most 100, none twice") {
  CHECK(Parse({"--model", "m.onnx"}).percentiles == std::vector<double>{50, 90, 99});
  CHECK(Parse({"--model", "m.onnx", "--percentiles", "99.9,50,100"}).percentiles ==
        std::vector<double>{50, 99.9, 100});
  CHECK(Parse({"--model", "m.onnx", "--percentiles", "0.5"}).percentiles == std::vector<double>{0.5});
  struct Case {
    const char* value;
    const char* message;
  };
  const Case cases[] = {
      {"0", "--percentiles '0': '0' is not a percentile (expected P,P,..., each above 0 and at most 100"},
      {"50,100.1", "'100.1' is not a percentile"},
      {"-5", "'-5' is not a percentile"},
      {"50,,99", "'' is not a percentile"},
      {"50,", "--percentiles '50,' (expected P,P,..."},
      {"p99", "'p99' is not a percentile"},
      {"99x", "'99x' is not a percentile"},
      {"nan", "'nan' is not a percentile"},
      {" 50", "' 50' is not a percentile"},
      {"50,90,50", "--percentiles '50,90,50': 50 is listed twice"},
  };
  for (const Case& c : cases) {
    const std::string message = UsageError({"--model", "m.onnx", "--percentiles", c.value});
    INFO("value: '" << c.value << "', message: " << message);
    CHECK(message.find(c.message) != std::string::npos);
  }
}

TEST_CASE("--max-latency-ms, --expected and --report are checked and collected") {
  const CommandLine command_line =
      Parse({"--model", "m.onnx", "--max-latency-ms", "2.5", "--expected", "y=ref.npy", "--expected",
             "z=a=b.npy", "--tolerance", "0.01", "--report", "out.json"});
  CHECK(command_line.max_latency_ms == 2.5);
  CHECK(command_line.expected_files == std::map<std::string, std::string>{{"y", "ref.npy"}, {"z", "a=b.npy"}});
  CHECK(command_line.tolerance == 0.01);
  CHECK(command_line.report_file == "out.json");
  CHECK(Parse({"--model", "m.onnx"}).max_latency_ms == 0);  // no limit
  CHECK(UsageError({"--model", "m.onnx", "--max-latency-ms", "0"}) ==
        "--max-latency-ms 0: must be a finite number above 0");
  CHECK(UsageError({"--model", "m.onnx", "--expected", "y"}) == "--expected 'y': expected NAME=FILE.npy");
  CHECK(UsageError({"--model", "m.onnx", "--expected", "y=a.npy", "--expected", "y=b.npy"}) ==
        "--expected 'y=b.npy': output y is given twice");
  CHECK(UsageError({"--model", "m.onnx", "--report", ""}) == "--report needs a file name");
  // The next option where a path belongs is not taken for a path.
  CHECK(UsageError({"--model", "m.onnx", "--profile", "--per-layer"}) ==
        "--profile needs a file name, not the option --per-layer (write ./--per-layer for a path of that name)");
  CHECK(UsageError({"--model", "m.onnx", "--output-dir", "--json"}).rfind("--output-dir needs a folder name, not", 0) ==
        0);
  CHECK(Parse({"--model", "m.onnx", "--profile", "./--per-layer"}).profile == "./--per-layer");
  CHECK(UsageError({"--model", "m.onnx", "--tolerance", "0.1"}) ==
        "--tolerance applies to --compare-backends and --expected only");
}

TEST_CASE("--compare-backends takes none of the timing and checking options, but --report") {
  for (const char* option : {"--duration", "--percentiles", "--max-latency-ms", "--expected"}) {
    const std::string value = std::string(option) == "--expected" ? "y=a.npy" : "50";
    CHECK(UsageError({"--model", "m.onnx", "--compare-backends", "A,B", option, value}) ==
          std::string("--compare-backends runs each backend alone, once: it takes no ") + option);
  }
  CHECK(Parse({"--model", "m.onnx", "--compare-backends", "A,B", "--report", "r.json"}).report_file ==
        "r.json");
}

TEST_CASE("--help describes the timing, checking and report options and their exit codes") {
  const std::string help = HelpText();
  for (const char* text : {"--duration S", "--percentiles P,P,...", "--max-latency-ms X",
                           "--expected NAME=FILE.npy", "--report FILE.json", "  2   --max-latency-ms",
                           "  130 interrupted"}) {
    CHECK_MESSAGE(help.find(text) != std::string::npos, text);
  }
}

}  // namespace
}  // namespace backplane::sdk_run
