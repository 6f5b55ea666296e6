#include "command_line.hpp"

#include "exit_code.hpp"

#include <doctest/doctest.h>

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

}  // namespace
}  // namespace backplane::sdk_run
