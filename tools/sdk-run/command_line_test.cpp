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

// Arguments after "--model m.onnx", and a part of the usage error they give.
struct UsageCase {
  std::vector<std::string> arguments;
  const char* message;
};

void CheckUsageError(const UsageCase& c) {
  std::vector<std::string> arguments = {"--model", "m.onnx"};
  arguments.insert(arguments.end(), c.arguments.begin(), c.arguments.end());
  const std::string message = UsageError(arguments);
  INFO("message: " << message);
  CHECK(message.find(c.message) != std::string::npos);
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
  const UsageCase cases[] = {
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
  for (const UsageCase& c : cases) CheckUsageError(c);
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
        "--tolerance applies to --compare-backends, --expected and --expected-set only");
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

TEST_CASE("--input-set: one set per option, in order, each NAME=FILE,NAME=FILE") {
  const CommandLine command_line =
      Parse({"--model", "m.onnx", "--input-set", "ids=a/s16.ids.npy,mask=a/s16.mask.npy", "--input-set",
             "mask=b=c.npy,ids=b.npy", "--expected-set", "y=s16.y.npy", "--expected-set", "y=s40.y.npy",
             "--tolerance", "0.01", "--max-specializations", "1", "--iterations", "3", "--warmup", "0",
             "--percentiles", "50,99", "--max-latency-ms", "5", "--backends", "CpuRef", "--threads", "2"});
  using Files = std::map<std::string, std::string>;
  const std::vector<Files> sets = {{{"ids", "a/s16.ids.npy"}, {"mask", "a/s16.mask.npy"}},
                                   {{"ids", "b.npy"}, {"mask", "b=c.npy"}}};  // split at the first '='
  CHECK(command_line.input_sets == sets);
  const std::vector<Files> expected = {{{"y", "s16.y.npy"}}, {{"y", "s40.y.npy"}}};
  CHECK(command_line.expected_sets == expected);
  CHECK(command_line.max_specializations == 1);
  CHECK(command_line.iterations == 3);
  CHECK(command_line.warmup == 0);
  CHECK(command_line.input_files.empty());
  CHECK(Parse({"--model", "m.onnx", "--input-set", "x=a.npy"}).max_specializations == 8);
}

TEST_CASE("malformed --input-set and --expected-set values are usage errors naming the set") {
  const UsageCase cases[] = {
      {{"--input-set", ""}, "--input-set 1 '': expected NAME=FILE.npy[,NAME=FILE.npy...]"},
      {{"--input-set", "x=a.npy,"}, "--input-set 1 'x=a.npy,': expected NAME=FILE.npy"},
      {{"--input-set", "x=a.npy", "--input-set", "x=a.npy,b.npy"},
       "--input-set 2 'x=a.npy,b.npy': 'b.npy' is not NAME=FILE.npy (a FILE cannot contain ',')"},
      {{"--input-set", "x=a.npy,,y=b.npy"}, "--input-set 1 'x=a.npy,,y=b.npy': '' is not NAME=FILE.npy"},
      {{"--input-set", "=a.npy"}, "--input-set 1 '=a.npy': '=a.npy' is not NAME=FILE.npy"},
      {{"--input-set", "x="}, "--input-set 1 'x=': 'x=' is not NAME=FILE.npy"},
      {{"--input-set", "x=a.npy,x=b.npy"}, "--input-set 1 'x=a.npy,x=b.npy': x is given twice"},
      {{"--input-set", "x=a.npy", "--expected-set", "y"}, "--expected-set 1 'y': 'y' is not NAME=FILE.npy"},
      {{"--input-set", "x=a.npy", "--max-specializations", "0"}, "--max-specializations 0: must be at least 1"},
  };
  for (const UsageCase& c : cases) CheckUsageError(c);
}

TEST_CASE("--input-set refuses the options of one input set, one loaded network or parallel contexts") {
  const std::pair<std::vector<std::string>, const char*> refused[] = {
      {{"--input", "x=a.npy"}, "--input-set takes no --input: each set gives every input's file"},
      {{"--input-shape", "x=1,2"}, "--input-set takes no --input-shape: each input's shape comes from its file"},
      {{"--seed", "3"}, "--input-set takes no --seed: every input comes from a file"},
      {{"--expected", "y=r.npy"}, "--input-set takes no --expected: give one --expected-set per --input-set"},
      {{"--compare-backends", "A,B"}, "--input-set takes no --compare-backends"},
      {{"--concurrency", "2"}, "--input-set takes no --concurrency: the sets run one at a time, round-robin"},
      {{"--profile", "t.json"}, "--input-set takes no --profile"},
      {{"--per-layer"}, "--input-set takes no --per-layer"},
      {{"--verbose"}, "--input-set takes no --verbose"},
      {{"--expected-set", "y=1.npy", "--expected-set", "y=2.npy"},
       "--expected-set is given 2 times for 1 --input-set: give one per input set, in the same order"},
  };
  for (const auto& [arguments, message] : refused) {
    std::vector<std::string> all = {"--model", "m.onnx", "--input-set", "x=a.npy"};
    all.insert(all.end(), arguments.begin(), arguments.end());
    const std::string error = UsageError(all);
    INFO("message: " << error);
    CHECK(error.rfind(message, 0) == 0);  // the message starts so
  }
  // and the set options without a set
  CHECK(UsageError({"--model", "m.onnx", "--expected-set", "y=1.npy"}) == "--expected-set applies to --input-set only");
  CHECK(UsageError({"--model", "m.onnx", "--max-specializations", "2"}) ==
        "--max-specializations applies to --input-set only");
  // the options that compose with it
  for (const std::vector<std::string>& allowed :
       {std::vector<std::string>{"--duration", "0.5"}, {"--strict"}, {"--pin", "fc=CpuRef"}, {"--json"},
        {"--report", "r.json"}, {"--backend-option", "CpuRef:a=1"}, {"--path", "plugins"},
        {"--output-dir", "out"}}) {
    std::vector<std::string> all = {"--model", "m.onnx", "--input-set", "x=a.npy"};
    all.insert(all.end(), allowed.begin(), allowed.end());
    CHECK_MESSAGE(UsageError(all).empty(), allowed.front());
  }
}

TEST_CASE("--help describes --input-set, --expected-set and --max-specializations") {
  const std::string help = HelpText();
  for (const char* text : {"--input-set NAME=FILE.npy,...", "--expected-set NAME=FILE.npy,...",
                           "--max-specializations N", "round-robin"}) {
    CHECK_MESSAGE(help.find(text) != std::string::npos, text);
  }
}

}  // namespace
}  // namespace backplane::sdk_run
