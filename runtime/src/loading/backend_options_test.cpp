#include "loading/backend_options.hpp"

#include <doctest/doctest.h>

#include <string>

namespace backplane::loading {
namespace {

using backend::OptionSpec;

const std::vector<OptionSpec> kSpecs{{"threads", OptionSpec::Type::kInteger, "0", "worker threads"},
                                     {"fast_math", OptionSpec::Type::kBoolean, "false", "bf16 inside"},
                                     {"cache_dir", OptionSpec::Type::kString, "", "kernel cache"}};

std::string Message(const std::function<void()>& call) {
  try {
    call();
  } catch (const OptionError& error) {
    CHECK(error.code() == ErrorCode::kInvalidArgument);
    return error.what();
  }
  FAIL("no OptionError");
  return {};
}

TEST_CASE("backend options: values parse by their declared type") {
  CHECK(ParsesAs(OptionSpec::Type::kInteger, "4"));
  CHECK(ParsesAs(OptionSpec::Type::kInteger, "-12"));
  CHECK(ParsesAs(OptionSpec::Type::kInteger, "+7"));
  CHECK(ParsesAs(OptionSpec::Type::kInteger, "9223372036854775807"));
  CHECK_FALSE(ParsesAs(OptionSpec::Type::kInteger, "9223372036854775808"));
  CHECK_FALSE(ParsesAs(OptionSpec::Type::kInteger, ""));
  CHECK_FALSE(ParsesAs(OptionSpec::Type::kInteger, "+"));
  CHECK_FALSE(ParsesAs(OptionSpec::Type::kInteger, "+-1"));
  CHECK_FALSE(ParsesAs(OptionSpec::Type::kInteger, "4 "));
  CHECK_FALSE(ParsesAs(OptionSpec::Type::kInteger, "four"));
  CHECK_FALSE(ParsesAs(OptionSpec::Type::kInteger, "0x10"));
  for (const char* good : {"0", "1", "true", "false"}) CHECK(ParsesAs(OptionSpec::Type::kBoolean, good));
  for (const char* bad : {"", "yes", "TRUE", "2", "on"}) CHECK_FALSE(ParsesAs(OptionSpec::Type::kBoolean, bad));
  CHECK(ParsesAs(OptionSpec::Type::kString, ""));
  CHECK(ParsesAs(OptionSpec::Type::kString, "anything at all"));
}

TEST_CASE("backend options: a backend gets its own and the declared \"*\" options, its own winning") {
  const backend::BackendOptions all{{"threads", "2"}, {"fast_math", "1"}, {"other_backends_key", "x"}};
  const backend::BackendOptions own{{"threads", "8"}, {"cache_dir", "/tmp/k"}};
  const auto selected = SelectOptions("CpuX", kSpecs, &all, &own);
  CHECK(selected == backend::BackendOptions{{"threads", "8"}, {"fast_math", "1"}, {"cache_dir", "/tmp/k"}});
  CHECK(SelectOptions("CpuX", kSpecs, nullptr, nullptr).empty());
  CHECK(SelectOptions("CpuX", {}, &all, nullptr).empty());
}

TEST_CASE("backend options: an unknown key names the backend, key, value and what is accepted") {
  const backend::BackendOptions own{{"thread", "4"}};
  CHECK(Message([&] { SelectOptions("CpuX", kSpecs, nullptr, &own); }) ==
        "backend CpuX has no option \"thread\" (given the value \"4\"); it accepts threads (integer), "
        "fast_math (boolean), cache_dir (string)");
  CHECK(Message([&] { SelectOptions("CpuY", {}, nullptr, &own); }) ==
        "backend CpuY has no option \"thread\" (given the value \"4\"); it accepts no options");
}

TEST_CASE("backend options: a value of the wrong type names the backend, key, value and the type") {
  const backend::BackendOptions own{{"threads", "four"}};
  CHECK(Message([&] { SelectOptions("CpuX", kSpecs, nullptr, &own); }) ==
        "backend CpuX: option \"threads\" = \"four\" is not a valid integer; it must be a decimal integer (optional "
        "sign, 64 bits)");
  const backend::BackendOptions all{{"fast_math", "yes"}};
  CHECK(Message([&] { SelectOptions("CpuX", kSpecs, &all, nullptr); }) ==
        "backend CpuX: option \"fast_math\" = \"yes\" (given for all backends, \"*\") is not a valid boolean; it must "
        "be 0, 1, true or false");
}

TEST_CASE("backend options: a \"*\" key no registered backend declares is an error listing what they accept") {
  BackendInfo cpu;
  cpu.id = "CpuX";
  cpu.options = kSpecs;
  BackendInfo gpu;
  gpu.id = "GpuY";
  CheckAllBackendsOptions({{"threads", "4"}}, {cpu, gpu});
  CHECK(Message([&] { CheckAllBackendsOptions({{"thraeds", "4"}}, {cpu, gpu}); }) ==
        "option \"thraeds\" = \"4\" was given for all backends (\"*\"), but no registered backend has it; they "
        "accept: CpuX: threads (integer), fast_math (boolean), cache_dir (string); GpuY: no options");
}

}  // namespace
}  // namespace backplane::loading
