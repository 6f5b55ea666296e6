// End-to-end runs of the built sdk-run: exit codes and messages for bad command lines, models
// and inputs; the JSON document, output files, profile and comparison of real runs on CpuRef.
//
// Build-time inputs (compile definitions): the sdk-run executable, the committed test models
// (tests/data, made by generate_models.py there), the build tree's backend folder and whether
// the reference backend is built.
#include "child_process.hpp"
#include "tool_output.hpp"
#include "temp_folder.hpp"

#include <backplane/npy.hpp>
#include <backplane/version.hpp>

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace backplane::e2e {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;
using test_support::TempFolder;

const std::string kSdkRun = BACKPLANE_E2E_SDK_RUN;
const fs::path kData = BACKPLANE_E2E_TEST_DATA;
const fs::path kBackendDir = BACKPLANE_E2E_BACKEND_DIR;
constexpr bool kHaveReference = BACKPLANE_E2E_HAVE_REFERENCE;
constexpr bool kHaveReferencePlugin = BACKPLANE_E2E_HAVE_REFERENCE_PLUGIN;
constexpr bool kHaveStaticBackends = BACKPLANE_E2E_HAVE_STATIC_BACKENDS;

const std::string kMlp = (kData / "mlp.onnx").string();
const std::string kMlpInput = (kData / "mlp.input.npy").string();     // f32 [4,64]
const std::string kMlpExpected = (kData / "mlp.output.npy").string();  // PyTorch's, f32 [4,10]

// Runs sdk-run with the bundled plugins only: BACKPLANE_BACKEND_PATHS points at the build
// tree's backend folder (or is removed when the backends are linked in), whatever the caller's
// environment says.
ProcessResult SdkRun(const std::vector<std::string>& arguments) {
  const ScopedEnvironmentVariable paths(
      "BACKPLANE_BACKEND_PATHS",
      kHaveReferencePlugin ? std::optional<std::string>(kBackendDir.string()) : std::nullopt);
  return RunProcess(kSdkRun, arguments);
}

// Runs sdk-run into `result` and shows its arguments and output with any failed check of the
// enclosing scope.
#define RUN_SDK_RUN(result, ...)                                               \
  const std::vector<std::string> result##_arguments = __VA_ARGS__;             \
  const ProcessResult result = SdkRun(result##_arguments);                     \
  INFO("sdk-run " << json(result##_arguments).dump() << " exited "             \
                  << result.exit_code << "\nstdout:\n" << result.out          \
                  << "\nstderr:\n" << result.err)

NpyArray Floats(const TensorShape& shape, float value) {
  NpyArray array{DataType::kFloat32, shape, {}};
  std::vector<float> values(static_cast<std::size_t>(shape.NumElements()), value);
  array.data.resize(values.size() * sizeof(float));
  std::memcpy(array.data.data(), values.data(), array.data.size());
  return array;
}

std::vector<float> ToFloats(const NpyArray& array) {
  REQUIRE(array.type == DataType::kFloat32);
  std::vector<float> values(array.data.size() / sizeof(float));
  std::memcpy(values.data(), array.data.data(), array.data.size());
  return values;
}

// ---- command line ------------------------------------------------------------------------

TEST_CASE("sdk-run --help exits 0 and describes every option and exit code") {
  RUN_SDK_RUN(result, {"--help"});
  CHECK(result.exit_code == 0);
  for (const char* text :
       {"--model", "--backends", "--strict", "--pin", "--input", "--input-shape", "--seed",
        "--iterations", "--warmup", "--threads", "--concurrency", "--output-dir",
        "--compare-backends", "--tolerance", "--profile", "--per-layer", "--json", "--list-backends",
        "--version", "CpuRef is single-threaded", "Exit status", "64", "65", "66", "70", "73",
        "--duration", "--percentiles", "--max-latency-ms", "--expected", "--report", "130",
        "--input-set", "--expected-set", "--max-specializations"}) {
    CHECK_MESSAGE(Contains(result.out, text), text);
  }
  CHECK(result.err.empty());
}

TEST_CASE("sdk-run --version prints the SDK and Backend API versions") {
  RUN_SDK_RUN(result, {"--version"});
  CHECK(result.exit_code == 0);
  CHECK(result.out == "sdk-run (Backplane SDK " + ToString(kSdkVersion) + ")\nBackend API " +
                          ToString(kBackendApiVersion) + "\n");
}

TEST_CASE("sdk-run: a bad command line exits 64 naming the option") {
  struct Case {
    std::vector<std::string> arguments;
    const char* message;
  };
  const Case cases[] = {
      {{"--frobnicate"}, "frobnicate"},
      {{}, "--model FILE is required"},
      {{"--model", kMlp, "stray"}, "unexpected argument 'stray'"},
      {{"--model", kMlp, "--iter", "5"}, "iter"},  // no abbreviations
      {{"--model", kMlp, "--iterations", "0"}, "--iterations 0: must be at least 1"},
      {{"--model", kMlp, "--iterations", "many"}, "iterations"},
      {{"--model", kMlp, "--concurrency=-2"}, "--concurrency -2: must be at least 1"},
      {{"--model", kMlp, "--pin", "fc1"}, "--pin 'fc1': expected LAYER=BACKEND"},
      {{"--model", kMlp, "--input", "x"}, "--input 'x': expected NAME=FILE.npy"},
      {{"--model", kMlp, "--input", "=a.npy"}, "--input '=a.npy'"},
      {{"--model", kMlp, "--input-shape", "x=1,0"}, "dimension '0' is not a positive integer"},
      {{"--model", kMlp, "--input-shape", "x=1,,2"}, "--input-shape 'x=1,,2'"},
      {{"--model", kMlp, "--backends", "Cpu-Ref"}, "'Cpu-Ref' is not a backend id"},
      {{"--model", kMlp, "--backends", "CpuRef,CpuRef"}, "CpuRef is listed twice"},
      {{"--model", kMlp, "--seed=-1"}, "--seed '-1'"},
      {{"--model", kMlp, "--compare-backends", "CpuRef"}, "expected exactly two backends"},
      {{"--model", kMlp, "--compare-backends", "CpuRef,Other", "--iterations", "3"},
       "it takes no --iterations"},
      {{"--model", kMlp, "--tolerance", "0.1"},
       "--tolerance applies to --compare-backends, --expected and --expected-set only"},
      {{"--model", kMlp, "--duration", "0"}, "--duration 0: must be a finite number above 0"},
      {{"--model", kMlp, "--percentiles", "50,101"}, "'101' is not a percentile"},
      {{"--model", kMlp, "--percentiles", "0"}, "'0' is not a percentile"},
      {{"--model", kMlp, "--max-latency-ms", "-3"}, "--max-latency-ms -3: must be a finite number above 0"},
      {{"--model", kMlp, "--expected", "output"}, "--expected 'output': expected NAME=FILE.npy"},
      {{"--list-backends", "--model", kMlp}, "--list-backends takes no other option"},
      {{"--model", kMlp, "--per-layer=fastest"}, "--per-layer fastest: expected time, name, order or load"},
  };
  for (const Case& c : cases) {
    RUN_SDK_RUN(result, c.arguments);
    CHECK(result.exit_code == 64);
    CHECK(Contains(result.err, c.message));
    CHECK(Contains(result.err, "Try 'sdk-run --help'"));
    CHECK(result.out.empty());
  }
}

// ---- runtime failures --------------------------------------------------------------------

TEST_CASE("sdk-run with no backend at all exits 70 and says where it looked" *
          doctest::skip(kHaveStaticBackends || !kToolsReadEnvironment)) {
  TempFolder empty("e2e-run-no-backends");
  const ScopedEnvironmentVariable paths("BACKPLANE_BACKEND_PATHS", empty.path().string());
  const std::vector<std::string> arguments = {"--model", kMlp};
  const ProcessResult result = RunProcess(kSdkRun, arguments);
  INFO("stderr:\n" << result.err);
  CHECK(result.exit_code == 70);
  CHECK(Contains(result.err, "no backend registered"));
  CHECK(Contains(result.err, empty.path().string()));
  CHECK(result.out.empty());
}

// ---- bad models --------------------------------------------------------------------------

TEST_CASE("sdk-run: a missing model file exits 65 naming it" * doctest::skip(!kHaveReference)) {
  TempFolder folder("e2e-run-missing");
  const std::string missing = (folder.path() / "nothing-here.onnx").string();
  RUN_SDK_RUN(result, {"--model", missing});
  CHECK(result.exit_code == 65);
  CHECK(Contains(result.err, missing));
  CHECK(Contains(result.err, "no such file"));
  CHECK(result.out.empty());
}

TEST_CASE("sdk-run: a file that is not a model exits 65 naming it" * doctest::skip(!kHaveReference)) {
  TempFolder folder("e2e-run-garbage");
  SUBCASE("text") {
    const fs::path garbage = folder.path() / "garbage.onnx";
    WriteFile(garbage, "this is not an ONNX model, just some text\n");
    RUN_SDK_RUN(result, {"--model", garbage.string()});
    CHECK(result.exit_code == 65);
    CHECK(Contains(result.err, garbage.string()));
  }
  SUBCASE("a truncated model") {
    std::ifstream in(kMlp, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const fs::path truncated = folder.path() / "truncated.onnx";
    WriteFile(truncated, bytes.substr(0, bytes.size() / 2));
    RUN_SDK_RUN(result, {"--model", truncated.string()});
    CHECK(result.exit_code == 65);
    CHECK(Contains(result.err, truncated.string()));
  }
  SUBCASE("a folder") {
    RUN_SDK_RUN(result, {"--model", folder.path().string()});
    CHECK(result.exit_code == 65);
    CHECK(Contains(result.err, "is a folder"));
  }
}

TEST_CASE("sdk-run: an unsupported model exits 65 listing the unsupported node" *
          doctest::skip(!kHaveReference)) {
  RUN_SDK_RUN(result, {"--model", (kData / "bad_unsupported_ops.onnx").string()});
  CHECK(result.exit_code == 65);
  for (const char* node : {"LpNormalization 'lpnorm1' (opset 13)", "Multinomial '#2' (opset 13)"}) {
    CHECK_MESSAGE(Contains(result.err, node), node);
  }
}

TEST_CASE("sdk-run: a dynamic dimension needs --input-shape" * doctest::skip(!kHaveReference)) {
  const std::string model = (kData / "mlp_dynamic.onnx").string();
  SUBCASE("without it: exit 65 naming the input") {
    RUN_SDK_RUN(result, {"--model", model});
    CHECK(result.exit_code == 65);
    CHECK(Contains(result.err, model));
    CHECK(Contains(result.err, "input 'input' dimension 0 ('batch') is dynamic"));
    CHECK(Contains(result.err, "--input-shape"));
  }
  SUBCASE("with it: the output has the shape given") {
    RUN_SDK_RUN(result, {"--model", model, "--input-shape", "input=3,64", "--backends", "CpuRef",
                         "--iterations", "2", "--json"});
    REQUIRE(result.exit_code == 0);
    const json document = ParseJson(result);
    CHECK(document.at("model").at("inputs").at(0).at("shape") == json({3, 64}));
    CHECK(document.at("outputs").at(0).at("shape") == json({3, 10}));
    CHECK(document.at("outputs").at(0).at("min").get<double>() >= 0);  // a softmax
  }
  SUBCASE("for an input the model does not have: exit 65, the importer's message") {
    RUN_SDK_RUN(result, {"--model", model, "--input-shape", "input=3,64", "--input-shape", "z=1"});
    CHECK(result.exit_code == 65);
    CHECK(Contains(result.err, "'z'"));
    CHECK(Contains(result.err, "(its inputs: input)"));
  }
  SUBCASE("contradicting a fixed dimension: exit 65") {
    RUN_SDK_RUN(result, {"--model", model, "--input-shape", "input=3,65"});
    CHECK(result.exit_code == 65);
    CHECK(Contains(result.err, model));
  }
}

TEST_CASE("sdk-run: an input's shape comes from its .npy file" * doctest::skip(!kHaveReference)) {
  // bert_dynamic: symbolic batch and sequence; no --input-shape needed when files are given.
  for (const char* set : {"s16", "s40"}) {
    CAPTURE(set);
    const std::string stem = (kData / (std::string("bert_dynamic.") + set)).string();
    RUN_SDK_RUN(result, {"--model", (kData / "bert_dynamic.onnx").string(), "--backends", "CpuRef", "--iterations", "1",
                         "--input", "input_ids=" + stem + ".input_ids.npy", "--input",
                         "attention_mask=" + stem + ".attention_mask.npy", "--expected", "hidden=" + stem + ".hidden.npy",
                         "--json"});
    REQUIRE(result.exit_code == 0);
    const json document = ParseJson(result);
    const auto shape = document.at("model").at("inputs").at(0).at("shape");
    CHECK(shape == (std::string(set) == "s16" ? json({1, 16}) : json({2, 40})));
  }
}

// ---- --input-set: several input sets through one onnx::Session ----------------------------

const std::string kBert = (kData / "bert_dynamic.onnx").string();

// "input_ids=<s>.input_ids.npy,attention_mask=<s>.attention_mask.npy" for bert_dynamic's set
// `name` ("s16": [1,16], "s40": [2,40]).
std::string BertSet(const std::string& name) {
  const std::string stem = (kData / ("bert_dynamic." + name)).string();
  return "input_ids=" + stem + ".input_ids.npy,attention_mask=" + stem + ".attention_mask.npy";
}
std::string BertExpected(const std::string& name) {
  return "hidden=" + (kData / ("bert_dynamic." + name + ".hidden.npy")).string();
}

TEST_CASE("sdk-run --input-set: two shapes in one process, each matching its expected outputs" *
          doctest::skip(!kHaveReference)) {
  const std::vector<std::string> arguments = {
      "--model", kBert, "--backends", "CpuRef", "--iterations", "3", "--input-set", BertSet("s16"),
      "--input-set", BertSet("s40"), "--expected-set", BertExpected("s16"), "--expected-set", BertExpected("s40")};
  std::vector<std::string> with_json = arguments;
  with_json.push_back("--json");
  RUN_SDK_RUN(result, with_json);
  REQUIRE(result.exit_code == 0);
  const json document = ParseJson(result);
  CHECK(document.at("format") == "1.3");
  CHECK(document.at("kind") == "sets");
  CHECK(document.at("rounds") == 3);
  const json& shapes = document.at("shapes");
  REQUIRE(shapes.size() == 2);
  CHECK(shapes.at(0).at("inputs").at(0) == json({{"name", "input_ids"}, {"type", "i64"}, {"shape", {1, 16}}}));
  CHECK(shapes.at(1).at("inputs").at(1) == json({{"name", "attention_mask"}, {"type", "i64"}, {"shape", {2, 40}}}));
  for (std::size_t i = 0; i < 2; ++i) {
    CAPTURE(i);
    const json& shape = shapes.at(i);
    CHECK(shape.at("sets") == json({i}));
    // The first run imported, optimized and loaded the shape: it costs more than that.
    CHECK(shape.at("specialize_ms").get<double>() > 0);
    CHECK(shape.at("first_run_ms").get<double>() >= shape.at("specialize_ms").get<double>());
    const json& latency = shape.at("latency_ms");
    CHECK(latency.at("count") == 3);
    CHECK(latency.at("p50").get<double>() > 0);
    CHECK(latency.at("p50").get<double>() < shape.at("first_run_ms").get<double>());
    CHECK(latency.contains("p90"));
    CHECK(latency.contains("p99"));
    CHECK(shape.at("reloads") == 0);
    const json& set = document.at("sets").at(i);
    CHECK(set.at("shape") == i);
    CHECK(set.at("specialized") == true);
    CHECK(set.at("runs") == 5);  // first, 1 warmup, 3 timed
    REQUIRE(set.at("expected").size() == 1);
    CHECK(set.at("expected").at(0).at("within_tolerance") == true);
    CHECK(set.at("outputs").at(0).at("shape") == (i == 0 ? json({1, 16, 32}) : json({2, 40, 32})));
  }
  CHECK(document.at("cache") == json({{"max_specializations", 8}, {"specializations_made", 2},
                                      {"specializations_loaded", 2}, {"specializations_unloaded", 0},
                                      {"runs", 10}}));
  CHECK(document.at("status") == "ok");

  RUN_SDK_RUN(text, arguments);
  REQUIRE(text.exit_code == 0);
  for (const char* line : {"2 input sets round-robin: a first run each, 1 warmup round, then 3 timed rounds",
                           "Shape 1     input_ids i64 [1,16], attention_mask i64 [1,16]  (set 1)",
                           "Shape 2     input_ids i64 [2,40], attention_mask i64 [2,40]  (set 2)",
                           "steady 3 runs:  p50 ", ", new (import, optimize and load ",
                           "Cache       2 specializations made, 2 loaded, 0 unloaded (--max-specializations 8); 10 runs",
                           "All 2 outputs within tolerance"}) {
    CHECK_MESSAGE(Contains(text.out, line), line);
  }
}

TEST_CASE("sdk-run --input-set: sets of one shape share its specialization, a small cache reloads" *
          doctest::skip(!kHaveReference)) {
  SUBCASE("s16, s40, s16: two shapes, the second s16 set served by the cache") {
    RUN_SDK_RUN(result, {"--model", kBert, "--backends", "CpuRef", "--iterations", "2", "--warmup", "0", "--input-set",
                         BertSet("s16"), "--input-set", BertSet("s40"), "--input-set", BertSet("s16"), "--json"});
    REQUIRE(result.exit_code == 0);
    const json document = ParseJson(result);
    REQUIRE(document.at("shapes").size() == 2);
    CHECK(document.at("shapes").at(0).at("sets") == json({0, 2}));
    CHECK(document.at("shapes").at(0).at("latency_ms").at("count") == 4);
    CHECK(document.at("sets").at(2).at("specialized") == false);
    CHECK(document.at("sets").at(2).at("specialize_ms") == 0);
    CHECK(document.at("cache").at("specializations_made") == 2);
  }
  SUBCASE("--max-specializations 1 with two shapes: every switch reloads, none is steady") {
    RUN_SDK_RUN(result, {"--model", kBert, "--backends", "CpuRef", "--iterations", "2", "--warmup", "0",
                         "--max-specializations", "1", "--input-set", BertSet("s16"), "--input-set", BertSet("s40")});
    REQUIRE(result.exit_code == 0);
    CHECK(Contains(result.out, "reloaded 2 times"));
    CHECK(Contains(result.out, "steady 0 runs"));
    CHECK(Contains(result.out, "Cache       6 specializations made, 1 loaded, 5 unloaded (--max-specializations 1)"));
  }
}

TEST_CASE("sdk-run --input-set: --output-dir per set, exit 1 above --tolerance, exit 2 above --max-latency-ms" *
          doctest::skip(!kHaveReference)) {
  TempFolder folder("e2e-run-input-set-checks");
  SUBCASE("--output-dir writes DIR/set-N/NAME.npy, the outputs of each set") {
    const fs::path out = folder.path() / "out";
    RUN_SDK_RUN(result, {"--model", kBert, "--backends", "CpuRef", "--iterations", "1", "--input-set", BertSet("s16"),
                         "--input-set", BertSet("s40"), "--output-dir", out.string(), "--json"});
    REQUIRE(result.exit_code == 0);
    const json document = ParseJson(result);
    for (const char* set : {"1", "2"}) {
      CAPTURE(set);
      const fs::path file = out / (std::string("set-") + set) / "hidden.npy";
      const std::size_t index = std::string(set) == "1" ? 0 : 1;
      CHECK(document.at("sets").at(index).at("outputs").at(0).at("file") == file.string());
      const NpyArray written = ReadNpy(file.string());
      const NpyArray reference =
          ReadNpy((kData / (std::string("bert_dynamic.") + (index == 0 ? "s16" : "s40") + ".hidden.npy")).string());
      CHECK(written.shape == reference.shape);
      const std::vector<float> a = ToFloats(written), b = ToFloats(reference);
      float largest = 0;
      for (std::size_t i = 0; i < a.size(); ++i) largest = std::max(largest, std::fabs(a[i] - b[i]));
      CHECK(largest < 1e-4f);
    }
  }
  SUBCASE("an output away from its --expected-set reference: exit 1, naming the set") {
    const std::string zeros = (folder.path() / "zeros.npy").string();
    WriteNpy(zeros, Floats({2, 40, 32}, 0.0f));
    RUN_SDK_RUN(result, {"--model", kBert, "--backends", "CpuRef", "--iterations", "1", "--input-set", BertSet("s16"),
                         "--input-set", BertSet("s40"), "--expected-set", BertExpected("s16"), "--expected-set",
                         "hidden=" + zeros});
    CHECK(result.exit_code == 1);
    CHECK(Contains(result.out, "  set 1  hidden  f32 [1,16,32]  max abs error "));
    CHECK(Contains(result.out, "ABOVE TOLERANCE  <- " + zeros));
    CHECK(Contains(result.out, "1 output of 2 above tolerance"));
  }
  SUBCASE("a shape's steady latency above --max-latency-ms: exit 2") {
    RUN_SDK_RUN(result, {"--model", kBert, "--backends", "CpuRef", "--iterations", "2", "--input-set", BertSet("s16"),
                         "--max-latency-ms", "0.000001", "--json"});
    CHECK(result.exit_code == 2);
    const json document = ParseJson(result);
    CHECK(document.at("status") == "above_latency_limit");
    CHECK(document.at("shapes").at(0).at("latency_limit").at("within_limit") == false);
  }
  SUBCASE("--duration: timed rounds until the time has passed") {
    RUN_SDK_RUN(result, {"--model", kBert, "--backends", "CpuRef", "--duration", "0.2", "--input-set", BertSet("s16"),
                         "--input-set", BertSet("s40"), "--json"});
    REQUIRE(result.exit_code == 0);
    const json document = ParseJson(result);
    CHECK(document.at("wall_time_ms").get<double>() >= 200);
    const auto rounds = document.at("rounds").get<std::size_t>();
    CHECK(rounds >= 1);
    CHECK(document.at("shapes").at(1).at("latency_ms").at("count") == rounds);
  }
}

TEST_CASE("sdk-run --input-set: bad sets exit 66 naming the set, the input and the file" *
          doctest::skip(!kHaveReference)) {
  TempFolder folder("e2e-run-input-sets");
  const std::string s16 = (kData / "bert_dynamic.s16.").string();
  const std::string s40 = (kData / "bert_dynamic.s40.").string();
  SUBCASE("two inputs that give one symbolic dimension two values") {
    const std::string set = "input_ids=" + s16 + "input_ids.npy,attention_mask=" + s40 + "attention_mask.npy";
    RUN_SDK_RUN(result, {"--model", kBert, "--backends", "CpuRef", "--input-set", BertSet("s16"), "--input-set", set});
    CHECK(result.exit_code == 66);
    CHECK(Contains(result.err, "--input-set 2 (input_ids=" + s16 + "input_ids.npy i64 [1,16], attention_mask="));
    CHECK(Contains(result.err, "dimension 0"));
    CHECK(Contains(result.err, "is 2, but"));
    CHECK(Contains(result.err, "is 1"));
    CHECK(result.out.empty());  // nothing ran
  }
  SUBCASE("a shape the model's fixed dimension contradicts") {
    const std::string file = (folder.path() / "wide.npy").string();
    WriteNpy(file, Floats({3, 64}, 0.5f));
    RUN_SDK_RUN(result, {"--model", kMlp, "--input-set", "input=" + kMlpInput, "--input-set", "input=" + file});
    CHECK(result.exit_code == 66);
    CHECK(Contains(result.err, "--input-set 2 (input=" + file + " f32 [3,64]): input 'input' dimension 0 is 3; "
                               "the model fixes it to 4"));
  }
  SUBCASE("a missing file") {
    const std::string file = (folder.path() / "absent.npy").string();
    RUN_SDK_RUN(result, {"--model", kBert, "--input-set", "input_ids=" + s16 + "input_ids.npy,attention_mask=" + file});
    CHECK(result.exit_code == 66);
    CHECK(Contains(result.err, "--input-set 1 attention_mask=" + file + ": no such file"));
  }
  SUBCASE("a set without a file for some input") {
    RUN_SDK_RUN(result, {"--model", kBert, "--input-set", BertSet("s16"), "--input-set", "input_ids=" + s16 + "input_ids.npy"});
    CHECK(result.exit_code == 66);
    CHECK(Contains(result.err, "--input-set 2: no file for input attention_mask (each set gives every input of the "
                               "model: input_ids, attention_mask)"));
  }
  SUBCASE("a name the model does not have") {
    RUN_SDK_RUN(result, {"--model", kBert, "--input-set", BertSet("s16") + ",mask=" + s16 + "attention_mask.npy"});
    CHECK(result.exit_code == 66);
    CHECK(Contains(result.err, "--input-set 1 mask=" + s16 + "attention_mask.npy: the model has no input mask "
                               "(its inputs: input_ids, attention_mask)"));
  }
  SUBCASE("a --pin on a layer the model does not have: exit 64, as for one set") {
    RUN_SDK_RUN(result, {"--model", kBert, "--backends", "CpuRef", "--input-set", BertSet("s16"), "--pin",
                         "nolayer=CpuRef"});
    CHECK(result.exit_code == 64);
    CHECK(Contains(result.err, "--pin nolayer=CpuRef: the model has no layer nolayer"));
  }
  SUBCASE("an expected output of another shape, and an output the model does not have") {
    RUN_SDK_RUN(shape, {"--model", kBert, "--backends", "CpuRef", "--input-set", BertSet("s16"), "--expected-set",
                        BertExpected("s40")});
    CHECK(shape.exit_code == 66);
    CHECK(Contains(shape.err, "--expected-set 1 " + BertExpected("s40") + ": wrong shape: the file holds f32 [2,40,32], "
                              "the model's output hidden is f32 [1,16,32]"));
    RUN_SDK_RUN(name, {"--model", kBert, "--backends", "CpuRef", "--input-set", BertSet("s16"), "--expected-set",
                       "y=" + s16 + "hidden.npy"});
    CHECK(name.exit_code == 66);
    CHECK(Contains(name.err, "the model has no output y (its outputs: hidden)"));
  }
}

// ---- bad input data ----------------------------------------------------------------------

TEST_CASE("sdk-run: input data that does not fit exits 66 naming the input" *
          doctest::skip(!kHaveReference)) {
  TempFolder folder("e2e-run-inputs");
  SUBCASE("wrong shape: both shapes named") {
    const std::string file = (folder.path() / "wide.npy").string();
    WriteNpy(file, Floats({3, 64}, 0.5f));
    RUN_SDK_RUN(result, {"--model", kMlp, "--input", "input=" + file});
    CHECK(result.exit_code == 66);
    CHECK(Contains(result.err, "--input input=" + file));
    CHECK(Contains(result.err, "wrong shape"));
    CHECK(Contains(result.err, "f32 [3,64]"));
    CHECK(Contains(result.err, "f32 [4,64]"));
  }
  SUBCASE("wrong type") {
    const std::string file = (folder.path() / "ints.npy").string();
    WriteNpy(file, NpyArray{DataType::kInt32, {4, 64}, std::vector<std::uint8_t>(4 * 64 * 4, 0)});
    RUN_SDK_RUN(result, {"--model", kMlp, "--input", "input=" + file});
    CHECK(result.exit_code == 66);
    CHECK(Contains(result.err, "wrong type"));
    CHECK(Contains(result.err, "i32 [4,64]"));
    CHECK(Contains(result.err, "f32 [4,64]"));
  }
  SUBCASE("unknown input name: the model's inputs listed") {
    RUN_SDK_RUN(result, {"--model", kMlp, "--input", "image=" + kMlpInput});
    CHECK(result.exit_code == 66);
    CHECK(Contains(result.err, "the model has no input image (its inputs: input)"));
  }
  SUBCASE("missing file") {
    const std::string file = (folder.path() / "absent.npy").string();
    RUN_SDK_RUN(result, {"--model", kMlp, "--input", "input=" + file});
    CHECK(result.exit_code == 66);
    CHECK(Contains(result.err, file));
    CHECK(Contains(result.err, "no such file"));
  }
  SUBCASE("a file that is not .npy") {
    const fs::path file = folder.path() / "text.npy";
    WriteFile(file, "not numpy\n");
    RUN_SDK_RUN(result, {"--model", kMlp, "--input", "input=" + file.string()});
    CHECK(result.exit_code == 66);
    CHECK(Contains(result.err, file.string()));
  }
}

// ---- runs --------------------------------------------------------------------------------

TEST_CASE("sdk-run --json: timing, placement on CpuRef, outputs" * doctest::skip(!kHaveReference)) {
  RUN_SDK_RUN(result, {"--model", kMlp, "--backends", "CpuRef", "--iterations", "5", "--warmup",
                       "2", "--json"});
  REQUIRE(result.exit_code == 0);
  const json document = ParseJson(result);
  CHECK(document.at("format") == "1.3");
  CHECK(document.at("kind") == "run");
  CHECK(document.at("status") == "ok");
  CHECK(document.at("exit_code") == 0);
  CHECK(document.at("model").at("path") == kMlp);
  CHECK(document.at("model").at("inputs").at(0).at("name") == "input");
  CHECK(document.at("model").at("inputs").at(0).at("source") == "random");
  CHECK(document.at("backends") == json({"CpuRef"}));
  for (const char* field : {"import_time_ms", "optimize_time_ms", "load_time_ms", "wall_time_ms",
                            "throughput_runs_per_s"}) {
    INFO(field);
    CHECK(document.at(field).get<double>() >= 0);
  }
  const json& latency = document.at("latency_ms");
  CHECK(latency.at("count") == 5);
  CHECK(latency.at("p50").get<double>() > 0);
  CHECK(latency.at("p50").get<double>() <= latency.at("p90").get<double>());
  CHECK(latency.at("p90").get<double>() <= latency.at("p99").get<double>());
  CHECK(latency.at("min").get<double>() <= latency.at("mean").get<double>());
  CHECK(latency.at("mean").get<double>() <= latency.at("max").get<double>());
  CHECK(document.at("throughput_runs_per_s").get<double>() > 0);

  const json& placement = document.at("placement");
  REQUIRE_FALSE(placement.empty());
  std::size_t on_cpu_ref = 0;
  for (const json& layer : placement) {
    const std::string backend = layer.at("backend");
    CHECK_MESSAGE((backend.empty() || backend == "CpuRef"), layer.dump());
    on_cpu_ref += backend == "CpuRef";
    CHECK_FALSE(layer.at("type").get<std::string>().empty());
    if (!backend.empty()) CHECK_FALSE(layer.at("reason").get<std::string>().empty());
  }
  CHECK(on_cpu_ref > 0);
  CHECK(document.at("layers_per_backend") == json({{"CpuRef", on_cpu_ref}}));
  CHECK(document.at("copies") == 0);
  CHECK(document.at("edges").is_array());
  REQUIRE(document.at("outputs").size() == 1);
  CHECK(document.at("outputs").at(0).at("name") == "output");
  CHECK(document.at("outputs").at(0).at("shape") == json({4, 10}));
  CHECK(document.at("outputs").at(0).at("file") == "");
}

TEST_CASE("sdk-run text output: the summary table" * doctest::skip(!kHaveReference)) {
  RUN_SDK_RUN(result, {"--model", kMlp, "--backends", "CpuRef", "--iterations", "3", "--verbose"});
  REQUIRE(result.exit_code == 0);
  for (const char* text : {"Model", "mlp.onnx", "Times", "import", "optimize", "load", "Latency",
                           "p50", "p90", "p99", "Throughput", "runs/s", "Placement", "CpuRef",
                           "Copies: 0", "Outputs", "Layers (6 constants not shown):", "/fc1/Gemm", "Graph passes"}) {
    CHECK_MESSAGE(Contains(result.out, text), text);
  }
  CHECK_MESSAGE(!Contains(result.out, "\x1b["), "no colour or progress when stdout is a pipe");
}

TEST_CASE("sdk-run --output-dir writes outputs that match the expected values" *
          doctest::skip(!kHaveReference)) {
  TempFolder folder("e2e-run-outputs");
  const fs::path dir = folder.path() / "new" / "outputs";  // created with its parents
  RUN_SDK_RUN(result, {"--model", kMlp, "--backends", "CpuRef", "--input", "input=" + kMlpInput,
                       "--iterations", "2", "--output-dir", dir.string(), "--json"});
  REQUIRE(result.exit_code == 0);
  const json document = ParseJson(result);
  CHECK(document.at("model").at("inputs").at(0).at("source") == "file");
  CHECK(document.at("model").at("inputs").at(0).at("file") == kMlpInput);
  const fs::path written = dir / "output.npy";
  CHECK(document.at("outputs").at(0).at("file") == written.string());
  REQUIRE(fs::exists(written));

  const NpyArray actual = ReadNpy(written.string());
  const NpyArray expected = ReadNpy(kMlpExpected);
  CHECK(actual.shape == expected.shape);
  const std::vector<float> a = ToFloats(actual);
  const std::vector<float> e = ToFloats(expected);
  REQUIRE(a.size() == e.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    INFO("element " << i << ": " << a[i] << " vs " << e[i]);
    CHECK(std::fabs(a[i] - e[i]) <= 1e-4f);
  }
}

// The timed runs are the profiled ones: one event per step per timed run, each with its args,
// and the per-layer table in the JSON document built from the same runs.
TEST_CASE("sdk-run --profile traces every timed run and reports the per-layer table" *
          doctest::skip(!kHaveReference)) {
  TempFolder folder("e2e-run-profile");
  const fs::path trace = folder.path() / "trace.json";
  const std::string cnn = (kData / "cnn.onnx").string();
  constexpr int kRuns = 3;
  RUN_SDK_RUN(result, {"--model", cnn, "--backends", "CpuRef", "--iterations", std::to_string(kRuns),
                       "--profile", trace.string(), "--json"});
  REQUIRE(result.exit_code == 0);
  const json report = ParseJson(result);
  std::ifstream in(trace, std::ios::binary);
  json document;
  REQUIRE_NOTHROW(document = json::parse(in));
  const json& events = document.at("traceEvents");
  REQUIRE(events.is_array());

  // Every placed layer: one event per timed run, runs 0..kRuns-1, with op, backend and shapes.
  std::map<std::string, std::vector<int>> runs_of;
  std::map<std::string, std::string> op_of;
  for (const json& event : events) {
    CHECK(event.at("ph") == "X");
    const json& args = event.at("args");
    CHECK(args.at("context") == 0);
    CHECK(args.at("input_shapes").is_array());
    REQUIRE(args.at("output_shapes").is_array());
    CHECK_FALSE(args.at("output_shapes").empty());
    runs_of[event.at("name")].push_back(args.at("run").get<int>());
    op_of[event.at("name")] = args.at("op");
  }
  std::size_t placed = 0;
  for (const json& layer : report.at("placement")) {
    if (layer.at("backend") == "") continue;
    ++placed;
    const std::string name = layer.at("layer");
    INFO(name);
    CHECK(runs_of[name] == std::vector<int>{0, 1, 2});
    CHECK(op_of[name] == layer.at("type"));
  }
  CHECK(placed >= 16);
  CHECK(events.size() == kRuns * report.at("per_layer").size());
  CHECK(report.at("profile").at("file") == trace.string());
  CHECK(report.at("profile").at("events") == events.size());
  CHECK(report.at("profile").at("runs") == kRuns);
  CHECK(report.at("profile").at("sort") == "time");

  // The per-layer table: slowest first, shares summing to 1, GFLOP/s for the convolutions
  // and the Gemm only, and a profiled run no longer than the timed run it is part of.
  const json& table = report.at("per_layer");
  double share = 0, average = 0, previous = INFINITY;
  for (const json& row : table) {
    INFO(row.dump());
    CHECK(row.at("calls") == kRuns);
    CHECK(row.at("backend") == "CpuRef");
    CHECK(row.at("fallback") == "");
    CHECK(row.at("total_ms").get<double>() <= previous);
    previous = row.at("total_ms").get<double>();
    share += row.at("share").get<double>();
    average += row.at("average_ms").get<double>();
    const bool counted = row.at("op") == "Convolution2d" || row.at("op") == "FullyConnected";
    CHECK((row.at("flops").get<double>() > 0) == counted);
    CHECK(row.at("gflops_per_s").is_number() == counted);
    CHECK(row.at("implementation").is_string());  // CpuRef's workloads say nothing: ""
    CHECK(row.at("load_ms").get<double>() >= 0);   // creating its workload at load
    CHECK(row.at("slow_path") == "");
  }
  CHECK(share == doctest::Approx(1.0));
  CHECK(average <= report.at("latency_ms").at("mean").get<double>());
}

TEST_CASE("sdk-run --per-layer prints the table in the order asked for, and writes no trace" *
          doctest::skip(!kHaveReference)) {
  const std::string cnn = (kData / "cnn.onnx").string();
  RUN_SDK_RUN(result, {"--model", cnn, "--backends", "CpuRef", "--iterations", "2", "--per-layer", "name"});
  REQUIRE(result.exit_code == 0);
  // 16 compute layers: the exported HardSigmoid * x is recognized as one HardSwish.
  CHECK(Contains(result.out, "Per layer (16 steps, 2 profiled runs, by name; creating the workloads took "));
  CHECK(Contains(result.out, "GFLOP/s"));
  CHECK(Contains(result.out, "load ms"));
  CHECK_FALSE(Contains(result.out, "Profile:"));
  // The table's rows, between its heading line and the next section: sorted by name.
  const std::size_t heading = result.out.find("  layer ", result.out.find("Per layer"));
  REQUIRE(heading != std::string::npos);
  std::istringstream rows(result.out.substr(result.out.find('\n', heading) + 1));
  std::vector<std::string> names;
  for (std::string line; std::getline(rows, line) && line.rfind("  ", 0) == 0;) {
    names.push_back(line.substr(2, line.find(' ', 2) - 2));
  }
  CHECK(names.size() == 16);
  CHECK(std::is_sorted(names.begin(), names.end()));
  CHECK(std::find(names.begin(), names.end(), "/stem/stem.0/Conv") != names.end());
}

TEST_CASE("sdk-run --profile: a layer name that is not UTF-8 still gives valid JSON" *
          doctest::skip(!kHaveReference)) {
  // mlp.onnx with its Relu node (and that node's output) renamed to bytes that are not UTF-8;
  // same length, so the protobuf stays well formed.
  TempFolder folder("e2e-run-profile-utf8");
  std::ifstream in(kMlp, std::ios::binary);
  std::string model((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::size_t renamed = 0;
  for (std::size_t at = model.find("/Relu"); at != std::string::npos; at = model.find("/Relu", at)) {
    model.replace(at, 5, "/R\xfflu");
    ++renamed;
  }
  REQUIRE(renamed > 0);
  const fs::path bad_model = folder.path() / "mlp_not_utf8.onnx";
  std::ofstream(bad_model, std::ios::binary) << model;
  const fs::path trace = folder.path() / "trace.json";
  RUN_SDK_RUN(result, {"--model", bad_model.string(), "--backends", "CpuRef", "--iterations", "1",
                       "--profile", trace.string(), "--json"});
  REQUIRE(result.exit_code == 0);
  std::ifstream trace_in(trace, std::ios::binary);
  json document;
  REQUIRE_NOTHROW(document = json::parse(trace_in));
  bool found = false;
  for (const json& event : document.at("traceEvents")) found |= event.at("name") == "/R\xEF\xBF\xBDlu";
  CHECK(found);
  found = false;
  const json report = ParseJson(result);
  for (const json& row : report.at("per_layer")) found |= row.at("layer") == "/R\xEF\xBF\xBDlu";
  CHECK(found);
}

TEST_CASE("sdk-run --profile into a folder that does not exist exits 73" *
          doctest::skip(!kHaveReference)) {
  TempFolder folder("e2e-run-profile-bad");
  const fs::path trace = folder.path() / "missing" / "trace.json";
  RUN_SDK_RUN(result, {"--model", kMlp, "--iterations", "1", "--profile", trace.string()});
  CHECK(result.exit_code == 73);
  CHECK(Contains(result.err, trace.string()));
}

TEST_CASE("sdk-run --compare-backends CpuRef,CpuRef: no difference, exit 0" *
          doctest::skip(!kHaveReference)) {
  RUN_SDK_RUN(result, {"--model", kMlp, "--compare-backends", "CpuRef,CpuRef", "--json"});
  REQUIRE(result.exit_code == 0);
  const json document = ParseJson(result);
  CHECK(document.at("kind") == "compare");
  CHECK(document.at("reference") == "CpuRef");
  CHECK(document.at("within_tolerance") == true);
  CHECK(document.at("status") == "ok");
  REQUIRE(document.at("outputs").size() == 1);
  const json& output = document.at("outputs").at(0);
  CHECK(output.at("name") == "output");
  CHECK(output.at("max_abs_error") == 0.0);
  CHECK(output.at("max_rel_error") == 0.0);
  CHECK(output.at("reference_max_abs").get<double>() > 0);
  CHECK(document.at("runs").size() == 2);

  RUN_SDK_RUN(text, {"--model", kMlp, "--compare-backends", "CpuRef,CpuRef"});
  CHECK(text.exit_code == 0);
  CHECK(Contains(text.out, "max abs error 0"));
  CHECK(Contains(text.out, "within tolerance"));
}

TEST_CASE("sdk-run --concurrency 2: two contexts, all runs timed" * doctest::skip(!kHaveReference)) {
  RUN_SDK_RUN(result, {"--model", kMlp, "--backends", "CpuRef", "--concurrency", "2",
                       "--iterations", "4", "--threads", "2", "--json"});
  REQUIRE(result.exit_code == 0);
  const json document = ParseJson(result);
  CHECK(document.at("concurrency") == 2);
  CHECK(document.at("threads") == 2);
  CHECK(document.at("latency_ms").at("count") == 8);
  CHECK(document.at("throughput_runs_per_s").get<double>() > 0);
}

TEST_CASE("sdk-run: backends and pins are checked against the runtime" *
          doctest::skip(!kHaveReference)) {
  SUBCASE("--list-backends prints CpuRef") {
    RUN_SDK_RUN(result, {"--list-backends"});
    CHECK(result.exit_code == 0);
    CHECK(Contains(result.out, "CpuRef\n"));
  }
  SUBCASE("an unknown backend is a usage error listing the available ones") {
    RUN_SDK_RUN(result, {"--model", kMlp, "--backends", "NoSuchBackend"});
    CHECK(result.exit_code == 64);
    CHECK(Contains(result.err, "--backends: backend NoSuchBackend is not registered"));
    CHECK(Contains(result.err, "CpuRef"));
  }
  SUBCASE("a pin on a layer the model does not have") {
    RUN_SDK_RUN(result, {"--model", kMlp, "--pin", "no_such_layer=CpuRef"});
    CHECK(result.exit_code == 64);
    CHECK(Contains(result.err, "the model has no layer no_such_layer"));
  }
  SUBCASE("a pin on a real layer is honoured, with its reason") {
    RUN_SDK_RUN(probe, {"--model", kMlp, "--backends", "CpuRef", "--iterations", "1", "--json"});
    REQUIRE(probe.exit_code == 0);
    const json probed = ParseJson(probe);
    std::string layer;
    for (const json& entry : probed.at("placement")) {
      if (!entry.at("backend").get<std::string>().empty()) layer = entry.at("layer").get<std::string>();
    }
    REQUIRE_FALSE(layer.empty());
    RUN_SDK_RUN(result, {"--model", kMlp, "--pin", layer + "=CpuRef", "--iterations", "1", "--json"});
    REQUIRE(result.exit_code == 0);
    const json document = ParseJson(result);
    bool pinned = false;
    for (const json& entry : document.at("placement")) {
      if (entry.at("layer") == layer) pinned = Contains(entry.at("reason").get<std::string>(), "pinned");
    }
    CHECK(pinned);
  }
}

// ---- --backend-option -------------------------------------------------------------------

TEST_CASE("sdk-run --backend-option: malformed values exit 64 naming the option and value") {
  struct Case {
    std::vector<std::string> arguments;
    const char* message;
  };
  const Case cases[] = {
      {{"--backend-option", "fast_math=1"}, "--backend-option 'fast_math=1': expected ID:KEY=VALUE"},
      {{"--backend-option", "CpuRef:fast_math"}, "--backend-option 'CpuRef:fast_math': expected ID:KEY=VALUE"},
      {{"--backend-option", "CpuRef:=1"}, "--backend-option 'CpuRef:=1'"},
      {{"--backend-option", "Cpu-Ref:a=1"}, "'Cpu-Ref' is not a backend id"},
      {{"--backend-option", "CpuRef:a=1", "--backend-option", "CpuRef:a=2"}, "CpuRef:a is given twice"},
      {{"--threads", "2", "--backend-option", "*:threads=2"},
       "--threads already sets threads for every backend"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> arguments = {"--model", kMlp};
    arguments.insert(arguments.end(), c.arguments.begin(), c.arguments.end());
    RUN_SDK_RUN(result, arguments);
    CHECK(result.exit_code == 64);
    CHECK(Contains(result.err, c.message));
    CHECK(Contains(result.err, "Try 'sdk-run --help'"));
    CHECK(result.out.empty());
  }
}

TEST_CASE("sdk-run --backend-version: a malformed pin exits 64 naming it, a pin no copy meets leaves the backend out" *
          doctest::skip(!kHaveReferencePlugin)) {
  {
    RUN_SDK_RUN(result, {"--model", kMlp, "--backend-version", "CpuRef"});
    CHECK(result.exit_code == 64);
    CHECK(Contains(result.err, "--backend-version 'CpuRef': expected ID=RANGE"));
  }
  {
    RUN_SDK_RUN(result, {"--model", kMlp, "--backend-version", "CpuRef=1.2"});
    CHECK(result.exit_code == 64);
    CHECK(Contains(result.err, "the version range pinned for backend CpuRef"));
    CHECK(Contains(result.err, "1.2"));
  }
  {
    RUN_SDK_RUN(result, {"--model", kMlp, "--backends", "CpuRef", "--backend-version", "CpuRef=>=99.0.0"});
    CHECK(result.exit_code == 64);
    CHECK(Contains(result.err, "--backends: backend CpuRef is not registered"));
  }
  {
    const std::string version = ToString(kSdkVersion);  // the bundled backends' version
    RUN_SDK_RUN(result, {"--model", kMlp, "--backends", "CpuRef", "--iterations", "1", "--backend-version",
                         "CpuRef=" + version, "--json"});
    CHECK(result.exit_code == 0);
  }
}

TEST_CASE("sdk-run --path adds a backend folder for one run, searched first" *
          doctest::skip(!kHaveReferencePlugin || kHaveStaticBackends || !kToolsReadEnvironment)) {
  TempFolder folder("e2e-run-path");
  const fs::path drop = folder.path() / "drop";
  const fs::path empty = folder.path() / "empty";
  fs::create_directories(drop);
  fs::create_directories(empty);
  for (const fs::directory_entry& entry : fs::directory_iterator(kBackendDir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("Backplane_CpuRef_backend", 0) == 0) fs::copy(entry.path(), drop / name);
  }
  // BACKPLANE_BACKEND_PATHS names an empty folder: only the --path folder holds CpuRef.
  const ScopedEnvironmentVariable paths("BACKPLANE_BACKEND_PATHS", empty.string());
  const ProcessResult result =
      RunProcess(kSdkRun, {"--model", kMlp, "--backends", "CpuRef", "--iterations", "1", "--path", drop.string()});
  INFO("stdout:\n" << result.out << "\nstderr:\n" << result.err);
  CHECK(result.exit_code == 0);
  const ProcessResult without = RunProcess(kSdkRun, {"--model", kMlp, "--backends", "CpuRef", "--iterations", "1"});
  CHECK(without.exit_code != 0);
}

TEST_CASE("sdk-run --backend-option is reported in the JSON document and the text, run and compare" *
          doctest::skip(!kHaveReference)) {
  RUN_SDK_RUN(run, {"--model", kMlp, "--backends", "CpuRef", "--iterations", "1", "--backend-option",
                    "CpuRef:threads=3", "--backend-option", "*:threads=1", "--json"});
  REQUIRE(run.exit_code == 0);
  CHECK(ParseJson(run).at("backend_options") == json({{"*", {{"threads", "1"}}}, {"CpuRef", {{"threads", "3"}}}}));

  RUN_SDK_RUN(none, {"--model", kMlp, "--backends", "CpuRef", "--iterations", "1", "--json"});
  REQUIRE(none.exit_code == 0);
  CHECK(ParseJson(none).at("backend_options") == json::object());

  RUN_SDK_RUN(compare, {"--model", kMlp, "--compare-backends", "CpuRef,CpuRef", "--backend-option",
                        "CpuRef:threads=1", "--json"});
  REQUIRE(compare.exit_code == 0);
  CHECK(ParseJson(compare).at("backend_options") == json({{"CpuRef", {{"threads", "1"}}}}));

  RUN_SDK_RUN(text, {"--model", kMlp, "--backends", "CpuRef", "--iterations", "1",
                     "--backend-option", "CpuRef:threads=1"});
  REQUIRE(text.exit_code == 0);
  CHECK(Contains(text.out, "CpuRef: threads=1"));

  // An option the backend does not declare, or a value of the wrong type, is a usage error that
  // names the backend, the key, the value and what is accepted (Backend API 2.0 options).
  for (const char* option : {"CpuRef:some_key=1", "CpuRef:threads=many", "*:some_key=1"}) {
    RUN_SDK_RUN(refused, {"--model", kMlp, "--backends", "CpuRef", "--iterations", "1", "--backend-option", option});
    INFO(option << ": " << refused.err);
    CHECK(refused.exit_code == 64);
    CHECK(Contains(refused.err, std::string(option).find("some_key") != std::string::npos ? "some_key" : "many"));
    CHECK(Contains(refused.err, "threads"));
    CHECK(refused.out.empty());
  }
}

// The test plugin's context refuses to load network N when given the backend option
// RejectLoadOf=N (tests/plugins/test_backend.hpp); its Relu support puts the MLP's /Relu on it.
// The plugin is BACKPLANE_E2E_PLUGIN_VALID (the valid_a variant, built with the tests).
TEST_CASE("sdk-run --backend-option reaches the backend it names, and * reaches every backend" *
          doctest::skip(!kHaveReferencePlugin || !kToolsReadEnvironment)) {
#if defined(_WIN32)
  const std::string suffix = ".dll";
#elif defined(__APPLE__)
  const std::string suffix = ".dylib";
#else
  const std::string suffix = ".so";
#endif
  const fs::path built = BACKPLANE_E2E_PLUGIN_VALID;
  REQUIRE(fs::exists(built));
  TempFolder folder("e2e-run-backend-option");
  fs::copy_file(built, folder.path() / ("Test_ValidA_backend" + suffix));
#if defined(_WIN32)
  const std::string separator = ";";
#else
  const std::string separator = ":";
#endif
  const auto run = [&](std::vector<std::string> options) {
    std::vector<std::string> arguments = {"--model", kMlp, "--backends", "TestValidA,CpuRef",
                                          "--iterations", "1", "--json"};
    arguments.insert(arguments.end(), options.begin(), options.end());
    const ScopedEnvironmentVariable paths("BACKPLANE_BACKEND_PATHS",
                                          folder.path().string() + separator + kBackendDir.string());
    return RunProcess(kSdkRun, arguments);
  };
  const auto describe = [](const ProcessResult& result) {
    return "exit " + std::to_string(result.exit_code) + "\nstdout:\n" + result.out + "\nstderr:\n" + result.err;
  };

  const ProcessResult plain = run({});
  INFO(describe(plain));
  REQUIRE(plain.exit_code == 0);
  REQUIRE(ParseJson(plain).at("layers_per_backend").contains("TestValidA"));

  // The per-layer table flags the layers that fell back from TestValidA with the placement's
  // reason; /Relu, on TestValidA, is not flagged.
  const ProcessResult profiled = run({"--per-layer", "order"});
  INFO(describe(profiled));
  REQUIRE(profiled.exit_code == 0);
  const json profiled_report = ParseJson(profiled);
  std::map<std::string, json> rows;
  for (const json& row : profiled_report.at("per_layer")) rows[row.at("layer")] = row;
  REQUIRE(rows.count("/Relu") == 1);
  REQUIRE(rows.count("/fc1/Gemm") == 1);
  CHECK(rows["/Relu"].at("backend") == "TestValidA");
  CHECK(rows["/Relu"].at("fallback") == "");
  CHECK(rows["/fc1/Gemm"].at("backend") == "CpuRef");
  const std::string why = rows["/fc1/Gemm"].at("fallback");
  CHECK(Contains(why, "TestValidA"));
  CHECK(Contains(why, "placed on CpuRef"));
  CHECK(rows["/fc1/Gemm"].at("gflops_per_s").is_number());

  for (const char* option : {"TestValidA:RejectLoadOf=1", "*:RejectLoadOf=1"}) {
    const ProcessResult refused = run({"--backend-option", option});
    INFO(option << ": " << describe(refused));
    CHECK(refused.exit_code == 70);
    CHECK(Contains(refused.err, "backend TestValidA refused to load network 1"));
    CHECK(refused.out.empty());
  }
  // Another network's id, and the backend's own value over the * one (a * option reaches only the
  // backends that declare its key: TestValidA, not CpuRef).
  for (std::vector<std::string> options :
       {std::vector<std::string>{"--backend-option", "TestValidA:RejectLoadOf=2"},
        std::vector<std::string>{"--backend-option", "*:RejectLoadOf=1", "--backend-option",
                                 "TestValidA:RejectLoadOf=2"}}) {
    const ProcessResult loaded = run(options);
    INFO(json(options).dump() << ": " << describe(loaded));
    CHECK(loaded.exit_code == 0);
  }
}

}  // namespace
}  // namespace backplane::e2e

namespace backplane::e2e {
namespace {

// ---- --isolate (issue 18): a plugin that crashes while loading does not take sdk-run down ----

TEST_CASE("sdk-run --isolate runs the model on CpuRef beside a plugin that crashes while loading" *
          doctest::skip(!kHaveReferencePlugin || !kToolsReadEnvironment)) {
#if defined(_WIN32)
  const std::string suffix = ".dll", separator = ";";
#elif defined(__APPLE__)
  const std::string suffix = ".dylib", separator = ":";
#else
  const std::string suffix = ".so", separator = ":";
#endif
  TempFolder folder("e2e-run-isolate");
  const fs::path plugins = folder.path() / "plugins";
  const fs::path store = folder.path() / "verdicts";
  fs::create_directories(plugins);
  const fs::path crash = plugins / ("Test_TestCrashOnLoad_backend" + suffix);
  fs::copy_file(BACKPLANE_E2E_PLUGIN_CRASH_ON_LOAD, crash);
  const ScopedEnvironmentVariable verdicts("BACKPLANE_PLUGIN_VERDICT_STORE", store.string());
  const auto describe = [](const ProcessResult& result) {
    return "exit " + std::to_string(result.exit_code) + "\nstdout:\n" + result.out + "\nstderr:\n" + result.err;
  };
  const std::vector<std::string> run = {"--model", kMlp, "--backends", "CpuRef", "--iterations", "1", "--json"};

  if (!BACKPLANE_E2E_SANITIZED) {
    // Alone in the search path (other plugins, e.g. one bringing LLVM, may install SIGSEGV
    // handlers that make the crash less certain).
    const ScopedEnvironmentVariable paths("BACKPLANE_BACKEND_PATHS", plugins.string());
    const ProcessResult plain = RunProcess(kSdkRun, run);
    INFO("without --isolate: " << describe(plain));
    CHECK((plain.exit_code == -1 || plain.exit_code == 139));  // SIGSEGV
  }
  const ScopedEnvironmentVariable paths("BACKPLANE_BACKEND_PATHS",
                                        plugins.string() + separator + kBackendDir.string());
  // Every available backend (none given): the crashing plugin is not among them. Then on CpuRef,
  // from the stored verdict.
  const ProcessResult all = RunProcess(kSdkRun, {"--model", kMlp, "--iterations", "1", "--json", "--isolate",
                                                 "--isolate-timeout", "5"});
  INFO("--isolate: " << describe(all));
  REQUIRE(all.exit_code == 0);
  const json backends = ParseJson(all).at("backends");
  CHECK(std::find(backends.begin(), backends.end(), "CpuRef") != backends.end());
  CHECK(std::find(backends.begin(), backends.end(), "TestCrashOnLoad") == backends.end());
  std::vector<std::string> isolated_run = run;
  isolated_run.insert(isolated_run.end(), {"--isolate", "--isolate-timeout", "5"});
  const ProcessResult isolated = RunProcess(kSdkRun, isolated_run);
  INFO("--isolate --backends CpuRef: " << describe(isolated));
  REQUIRE(isolated.exit_code == 0);
  CHECK(ParseJson(isolated).at("layers_per_backend").contains("CpuRef"));
  std::size_t entries = 0;
  for (const auto& entry : fs::directory_iterator(store)) entries += entry.path().extension() == ".json";
  CHECK(entries >= 2);  // the crashing plugin and CpuRef, at least

  RUN_SDK_RUN(bad_timeout, {"--model", kMlp, "--isolate-timeout", "3"});
  CHECK(bad_timeout.exit_code == 64);
  CHECK(Contains(bad_timeout.err, "--isolate-timeout applies to --isolate only"));
}

// ---- timing for a duration, percentiles, limits, expected outputs, report file, Ctrl-C ------

TEST_CASE("sdk-run --duration: runs until the time has passed, at least --iterations per context" *
          doctest::skip(!kHaveReference)) {
  RUN_SDK_RUN(result, {"--model", kMlp, "--backends", "CpuRef", "--duration", "0.3", "--json"});
  REQUIRE(result.exit_code == 0);
  const json document = ParseJson(result);
  CHECK(document.at("duration_s") == 0.3);
  CHECK(document.at("iterations") == 1);  // the least number of runs, 1 with --duration
  CHECK(document.at("wall_time_ms").get<double>() >= 300);
  CHECK(document.at("latency_ms").at("count").get<int>() >= 1);
  CHECK(document.at("interrupted") == false);

  // -n with --duration is a minimum: 2 contexts of one slow-enough minimum still do all runs.
  RUN_SDK_RUN(both, {"--model", kMlp, "--backends", "CpuRef", "--duration", "0.01", "-n", "50",
                     "--concurrency", "2", "--json"});
  REQUIRE(both.exit_code == 0);
  CHECK(ParseJson(both).at("latency_ms").at("count").get<int>() >= 100);

  RUN_SDK_RUN(text, {"--model", kMlp, "--backends", "CpuRef", "--duration", "0.05"});
  REQUIRE(text.exit_code == 0);
  CHECK(Contains(text.out, "(for 0.05 s, at least 1 per context, after 1 warmup, 1 context)"));
}

TEST_CASE("sdk-run --percentiles: the percentiles asked for, in the text and the JSON" *
          doctest::skip(!kHaveReference)) {
  RUN_SDK_RUN(result, {"--model", kMlp, "--backends", "CpuRef", "-n", "20", "--percentiles",
                       "99.9,25", "--json"});
  REQUIRE(result.exit_code == 0);
  const json latency = ParseJson(result).at("latency_ms");
  CHECK(latency.contains("p25"));
  CHECK(latency.contains("p99.9"));
  CHECK_FALSE(latency.contains("p50"));
  CHECK_FALSE(latency.contains("p99"));
  CHECK(latency.at("p25").get<double>() <= latency.at("p99.9").get<double>());
  CHECK(latency.at("p99.9") == latency.at("max"));  // nearest rank: the slowest of 20 runs

  RUN_SDK_RUN(text, {"--model", kMlp, "--backends", "CpuRef", "-n", "3", "--percentiles", "75,99.9"});
  REQUIRE(text.exit_code == 0);
  CHECK(Contains(text.out, "p75 "));
  CHECK(Contains(text.out, "p99.9 "));
  CHECK_FALSE(Contains(text.out, "p50 "));
}

TEST_CASE("sdk-run --max-latency-ms: exit 2 when the highest percentile is above it" *
          doctest::skip(!kHaveReference)) {
  RUN_SDK_RUN(within, {"--model", kMlp, "--backends", "CpuRef", "-n", "3", "--max-latency-ms",
                       "100000", "--json"});
  REQUIRE(within.exit_code == 0);
  const json limit = ParseJson(within).at("latency_limit");
  CHECK(limit.at("limit_ms") == 100000.0);
  CHECK(limit.at("statistic") == "p99");
  CHECK(limit.at("within_limit") == true);

  RUN_SDK_RUN(above, {"--model", kMlp, "--backends", "CpuRef", "-n", "3", "--percentiles", "50,90",
                      "--max-latency-ms", "0.000001", "--json"});
  CHECK(above.exit_code == 2);
  const json document = ParseJson(above);
  CHECK(document.at("status") == "above_latency_limit");
  CHECK(document.at("exit_code") == 2);
  CHECK(document.at("latency_limit").at("statistic") == "p90");  // the highest asked for
  CHECK(document.at("latency_limit").at("value_ms") == document.at("latency_ms").at("p90"));
  CHECK(document.at("latency_limit").at("within_limit") == false);

  RUN_SDK_RUN(text, {"--model", kMlp, "--backends", "CpuRef", "-n", "3", "--max-latency-ms", "0.000001"});
  CHECK(text.exit_code == 2);
  CHECK(Contains(text.out, "--max-latency-ms 1e-06  ABOVE THE LIMIT"));
}

TEST_CASE("sdk-run --expected: the last run against reference outputs written by -o" *
          doctest::skip(!kHaveReference)) {
  TempFolder folder("e2e-run-expected");
  const fs::path dir = folder.path() / "reference";
  RUN_SDK_RUN(write, {"--model", kMlp, "--backends", "CpuRef", "-n", "1", "-o", dir.string()});
  REQUIRE(write.exit_code == 0);
  const std::string reference = (dir / "output.npy").string();

  RUN_SDK_RUN(same, {"--model", kMlp, "--backends", "CpuRef", "-n", "2", "--expected",
                     "output=" + reference, "--json"});
  REQUIRE(same.exit_code == 0);
  const json document = ParseJson(same);
  REQUIRE(document.at("expected").size() == 1);
  const json& output = document.at("expected").at(0);
  CHECK(output.at("name") == "output");
  CHECK(output.at("file") == reference);
  CHECK(output.at("shape") == json({4, 10}));
  CHECK(output.at("max_abs_error") == 0.0);
  CHECK(output.at("max_rel_error") == 0.0);
  CHECK(output.at("within_tolerance") == true);
  CHECK(document.at("tolerance") == 1e-4);

  // The smallest element moved by 1% of the largest magnitude (which stays the largest): a
  // relative error of 0.01, above the default tolerance, within 0.02.
  NpyArray perturbed = ReadNpy(reference);
  std::vector<float> values = ToFloats(perturbed);
  float largest = 0;
  for (float value : values) largest = std::max(largest, std::fabs(value));
  const auto smallest = std::min_element(values.begin(), values.end(), [](float a, float b) {
    return std::fabs(a) < std::fabs(b);
  });
  *smallest += 0.01f * largest;
  REQUIRE(std::fabs(*smallest) < largest);
  std::memcpy(perturbed.data.data(), values.data(), perturbed.data.size());
  const fs::path moved = folder.path() / "moved.npy";
  WriteNpy(moved.string(), perturbed);

  RUN_SDK_RUN(above, {"--model", kMlp, "--backends", "CpuRef", "-n", "1", "--expected",
                      "output=" + moved.string()});
  CHECK(above.exit_code == 1);
  CHECK(Contains(above.out, "Expected (tolerance 0.0001"));
  CHECK(Contains(above.out, "max rel error 0.01"));
  CHECK(Contains(above.out, "ABOVE TOLERANCE  <- " + moved.string()));
  CHECK(Contains(above.out, "1 output of 1 above tolerance"));

  RUN_SDK_RUN(loose, {"--model", kMlp, "--backends", "CpuRef", "-n", "1", "--expected",
                      "output=" + moved.string(), "--tolerance", "0.02", "--json"});
  CHECK(loose.exit_code == 0);
  CHECK(ParseJson(loose).at("expected").at(0).at("max_rel_error").get<double>() ==
        doctest::Approx(0.01).epsilon(0.01));
}

TEST_CASE("sdk-run --expected: a file or name that does not fit exits 66 naming both" *
          doctest::skip(!kHaveReference)) {
  TempFolder folder("e2e-run-expected-bad");
  const fs::path wrong_shape = folder.path() / "wrong_shape.npy";
  WriteNpy(wrong_shape.string(), Floats(TensorShape{4, 9}, 0.5f));
  const fs::path not_npy = folder.path() / "not.npy";
  WriteFile(not_npy, "not a numpy file");
  struct Case {
    std::string expected;
    std::string message;
  };
  const Case cases[] = {
      {"logits=" + kMlpExpected,
       "--expected logits=" + kMlpExpected + ": the model has no output logits (its outputs: output)"},
      {"output=" + wrong_shape.string(),
       "--expected output=" + wrong_shape.string() +
           ": wrong shape: the file holds f32 [4,9], the model's output output is f32 [4,10]"},
      {"output=" + not_npy.string(), "--expected output=" + not_npy.string() + ": "},
      {"output=" + (folder.path() / "missing.npy").string(), "missing.npy: no such file"},
  };
  for (const Case& c : cases) {
    RUN_SDK_RUN(result, {"--model", kMlp, "--backends", "CpuRef", "-n", "1", "--expected", c.expected});
    CHECK(result.exit_code == 66);
    CHECK(Contains(result.err, c.message));
    CHECK(result.out.empty());
  }
  // The committed reference (PyTorch's output for the committed input) is within 1e-4.
  RUN_SDK_RUN(committed, {"--model", kMlp, "--backends", "CpuRef", "-n", "1", "--input",
                          "input=" + kMlpInput, "--expected", "output=" + kMlpExpected});
  CHECK(committed.exit_code == 0);
  CHECK(Contains(committed.out, "All 1 output within tolerance"));
}

TEST_CASE("sdk-run --report writes the JSON document to a file, also on a failed check" *
          doctest::skip(!kHaveReference)) {
  TempFolder folder("e2e-run-report");
  const fs::path file = folder.path() / "report.json";
  RUN_SDK_RUN(result, {"--model", kMlp, "--backends", "CpuRef", "-n", "2", "--report", file.string()});
  REQUIRE(result.exit_code == 0);
  CHECK(Contains(result.out, "Latency"));  // the text still goes to stdout
  std::ifstream in(file, std::ios::binary);
  json document;
  REQUIRE_NOTHROW(document = json::parse(in));
  CHECK(document.at("kind") == "run");
  CHECK(document.at("latency_ms").at("count") == 2);
  CHECK(document.at("status") == "ok");

  RUN_SDK_RUN(above, {"--model", kMlp, "--backends", "CpuRef", "-n", "1", "--max-latency-ms",
                      "0.000001", "--report", file.string(), "--json"});
  CHECK(above.exit_code == 2);
  std::ifstream again(file, std::ios::binary);
  const json replaced = json::parse(again, nullptr, false);
  CHECK(replaced == ParseJson(above));  // the same document as stdout, the old one replaced
  CHECK(replaced.value("status", "") == "above_latency_limit");

  RUN_SDK_RUN(compare, {"--model", kMlp, "--compare-backends", "CpuRef,CpuRef", "--report", file.string()});
  CHECK(compare.exit_code == 0);
  std::ifstream compared(file, std::ios::binary);
  CHECK(json::parse(compared, nullptr, false).value("kind", "") == "compare");
}

TEST_CASE("sdk-run --report into a folder that does not exist exits 73 before running" *
          doctest::skip(!kHaveReference)) {
  TempFolder folder("e2e-run-report-bad");
  const fs::path file = folder.path() / "missing" / "report.json";
  RUN_SDK_RUN(result, {"--model", kMlp, "--backends", "CpuRef", "-n", "1", "--report", file.string()});
  CHECK(result.exit_code == 73);
  CHECK(Contains(result.err, "--report " + file.string() + ": the folder"));
  CHECK(result.out.empty());
  RUN_SDK_RUN(folder_itself, {"--model", kMlp, "-n", "1", "--report", folder.path().string()});
  CHECK(folder_itself.exit_code == 73);
  CHECK(Contains(folder_itself.err, "is a folder, not a file"));
}

#if !defined(_WIN32)
TEST_CASE("sdk-run: Ctrl-C (SIGINT) during --duration runs prints the report of the runs done, exit 130" *
          doctest::skip(!kHaveReference)) {
  TempFolder folder("e2e-run-interrupt");
  const fs::path file = folder.path() / "report.json";
  const ScopedEnvironmentVariable paths(
      "BACKPLANE_BACKEND_PATHS",
      kHaveReferencePlugin ? std::optional<std::string>(kBackendDir.string()) : std::nullopt);
  const auto started = std::chrono::steady_clock::now();
  const ProcessResult result = RunProcessAndInterrupt(
      kSdkRun,
      {"--model", kMlp, "--backends", "CpuRef", "--duration", "120", "--report", file.string(),
       "-o", (folder.path() / "out").string()},
      // Long enough for sdk-run to reach its runs under the sanitizers on a loaded machine
      // (before them, SIGINT kills as usual and this test fails on the exit code).
      std::chrono::milliseconds(8000));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  INFO("exit " << result.exit_code << "\nstdout:\n" << result.out << "\nstderr:\n" << result.err);
  CHECK(result.exit_code == 130);
  CHECK(seconds < 100);  // stopped, not run for the 120 s
  CHECK(Contains(result.out, "Interrupted by Ctrl-C (SIGINT)"));
  CHECK(Contains(result.out, "Latency"));
  std::ifstream in(file, std::ios::binary);
  const json document = json::parse(in, nullptr, false);
  REQUIRE(document.is_object());
  CHECK(document.at("status") == "interrupted");
  CHECK(document.at("exit_code") == 130);
  CHECK(document.at("interrupted") == true);
  CHECK(document.at("latency_ms").at("count").get<int>() >= 1);
  CHECK(document.at("wall_time_ms").get<double>() < 100000);
  CHECK_FALSE(fs::exists(folder.path() / "out" / "output.npy"));  // outputs are not written
}
#endif

#if !defined(_WIN32)
TEST_CASE("sdk-run --input-set: Ctrl-C during the timed rounds prints the report of the runs done, exit 130" *
          doctest::skip(!kHaveReference)) {
  TempFolder folder("e2e-run-input-set-interrupt");
  const fs::path file = folder.path() / "report.json";
  const ScopedEnvironmentVariable paths(
      "BACKPLANE_BACKEND_PATHS",
      kHaveReferencePlugin ? std::optional<std::string>(kBackendDir.string()) : std::nullopt);
  const ProcessResult result = RunProcessAndInterrupt(
      kSdkRun,
      {"--model", kBert, "--backends", "CpuRef", "--duration", "120", "--input-set", BertSet("s16"), "--input-set",
       BertSet("s40"), "--expected-set", BertExpected("s16"), "--expected-set", BertExpected("s40"), "--report",
       file.string(), "-o", (folder.path() / "out").string()},
      std::chrono::milliseconds(8000));  // as the plain run's test: long enough to reach the runs
  INFO("exit " << result.exit_code << "\nstdout:\n" << result.out << "\nstderr:\n" << result.err);
  CHECK(result.exit_code == 130);
  CHECK(Contains(result.out, "Interrupted by Ctrl-C (SIGINT)"));
  std::ifstream in(file, std::ios::binary);
  const json document = json::parse(in, nullptr, false);
  REQUIRE(document.is_object());
  CHECK(document.at("status") == "interrupted");
  CHECK(document.at("shapes").at(0).at("latency_ms").at("count").get<int>() >= 1);
  CHECK(document.at("sets").at(0).at("expected").empty());  // not checked
  CHECK_FALSE(fs::exists(folder.path() / "out" / "set-1"));  // not written
}
#endif

// ---- non-ASCII paths (backplane/path_text.hpp) -------------------------------------------------

// The model, its input, the output folder, the report and the trace all under a folder whose name
// is not ASCII. On Windows the arguments reach sdk-run as UTF-16 (RunProcess), which its argv would
// have in the ANSI code page; the importer and the tool open the files by their UTF-8 names.
TEST_CASE("sdk-run: model, input, outputs, report and trace in a folder with a non-ASCII name" *
          doctest::skip(!kHaveReference)) {
  TempFolder folder("e2e-run-unicode");
  const fs::path dir = folder.path() / fs::u8path(u8"modèles-日本");
  fs::create_directories(dir);
  fs::copy_file(kData / "mlp.onnx", dir / "mlp.onnx");
  fs::copy_file(kMlpInput, dir / "mlp.input.npy");
  const std::string model = (dir / "mlp.onnx").u8string();
  const std::string input = (dir / "mlp.input.npy").u8string();
  const fs::path outputs = dir / fs::u8path(u8"sorties");
  const fs::path report = dir / fs::u8path(u8"rapport-é.json");
  const fs::path trace = dir / fs::u8path(u8"trace-é.json");

  RUN_SDK_RUN(result, {"--model", model, "--backends", "CpuRef", "--input", "input=" + input, "--iterations", "2",
                       "--output-dir", outputs.u8string(), "--report", report.u8string(), "--profile",
                       trace.u8string(), "--json"});
  REQUIRE(result.exit_code == 0);
  const json document = ParseJson(result);
  CHECK(document.at("model").at("path") == model);
  CHECK(document.at("model").at("inputs").at(0).at("file") == input);
  CHECK(document.at("outputs").at(0).at("file") == (outputs / "output.npy").u8string());
  CHECK(fs::is_regular_file(outputs / "output.npy"));
  CHECK(fs::is_regular_file(trace));
  std::ifstream in(report, std::ios::binary);
  const json written = json::parse(in, nullptr, false);
  CHECK(written == document);
}

}  // namespace
}  // namespace backplane::e2e

namespace backplane::e2e {
namespace {

// ---- Issue 41: what a backend reports is bounded; a backend that exits is no success ---------

// sdk-run over the MLP with test plugin `built` (its id `id`) first and CpuRef after: its /Relu
// runs on the test plugin.
ProcessResult RunWithTestPlugin(const std::string& built, const std::string& id, const std::string& folder_name) {
  TempFolder folder(folder_name);
  fs::copy_file(built, folder.path() / ("Test_" + id + "_backend" + std::string(kLibrarySuffix)));
#if defined(_WIN32)
  const std::string separator = ";";
#else
  const std::string separator = ":";
#endif
  const ScopedEnvironmentVariable paths("BACKPLANE_BACKEND_PATHS",
                                        folder.path().string() + separator + kBackendDir.string());
  return RunProcess(kSdkRun, {"--model", kMlp, "--backends", id + ",CpuRef", "--iterations", "1", "--json"});
}

std::string Describe(const ProcessResult& result) {
  return "exit " + std::to_string(result.exit_code) + "\nstdout:\n" + result.out + "\nstderr:\n" + result.err;
}

TEST_CASE("sdk-run: a workload asking for 2^62 bytes of scratch memory fails naming backend, function and layer" *
          doctest::skip(!kHaveReferencePlugin || !kToolsReadEnvironment)) {
  const ProcessResult result =
      RunWithTestPlugin(BACKPLANE_E2E_PLUGIN_HUGE_SCRATCH, "TestHugeScratch", "e2e-run-scratch");
  INFO(Describe(result));
  CHECK(result.exit_code == 70);
  CHECK(Contains(result.err, "backend TestHugeScratch: get_scratch_size for layer '/Relu': asked for "
                             "4611686018427387904 bytes of scratch memory; the runtime gives a workload at most "
                             "1099511627776"));
  CHECK_FALSE(Contains(result.err, "bad_alloc"));
}

TEST_CASE("sdk-run: a backend calling exit(0) in execute makes sdk-run fail, naming backend and layer" *
          doctest::skip(!kHaveReferencePlugin || !kToolsReadEnvironment)) {
  const ProcessResult result =
      RunWithTestPlugin(BACKPLANE_E2E_PLUGIN_EXECUTE_EXITS, "TestExecuteExits", "e2e-run-exits");
  INFO(Describe(result));
  CHECK(result.exit_code == 70);
  CHECK(result.err == "sdk-run: did not finish: the process was ended from inside backend TestExecuteExits: execute "
                      "for layer '/Relu'; the output is incomplete\n");
  CHECK(result.out.empty());
}

}  // namespace
}  // namespace backplane::e2e
