#include "profile_trace.hpp"

#include <doctest/doctest.h>
#include <nlohmann/json.hpp>

#include <sstream>

namespace backplane::sdk_run {
namespace {

// Two steps, two contexts with two timed runs each.
TimedProfile MakeProfile(const std::string& first_layer) {
  TimedProfile profile;
  profile.steps.push_back({first_layer, BackendId("CpuRef"), "Convolution2d",
                           {{{1, 3, 8, 8}, DataType::kFloat32}, {{4, 3, 3, 3}, DataType::kFloat32}},
                           {{{1, 4, 6, 6}, DataType::kFloat32}}});
  profile.steps.push_back({"output 'y'", BackendId(), "Copy", {{{1, 4, 6, 6}, DataType::kFloat32}},
                           {{{1, 4, 6, 6}, DataType::kFloat32}}});
  profile.details = {{2.0 * 144 * 27, "jit:avx2", ""}, {}};
  for (int context = 0; context < 2; ++context) {
    for (int run = 0; run < 2; ++run) {
      const double start = 1000.0 * run + context;
      profile.runs.push_back({context, run, start, {{0, 0.5, 10}, {1, 11, 2}}});
    }
  }
  return profile;
}

nlohmann::json Trace(const TimedProfile& profile) {
  std::ostringstream text;
  WriteTrace(profile, text);
  return nlohmann::json::parse(text.str());  // throws on invalid JSON (or UTF-8)
}

TEST_CASE("the trace has one complete event per step of every timed run, with its args") {
  const nlohmann::json trace = Trace(MakeProfile("conv"));
  const nlohmann::json& events = trace.at("traceEvents");
  REQUIRE(events.size() == 8);
  // Context 0's second run: ts is the run's start plus the step's.
  const nlohmann::json& conv = events[2];
  CHECK(conv.at("name") == "conv");
  CHECK(conv.at("cat") == "CpuRef");
  CHECK(conv.at("ph") == "X");
  CHECK(conv.at("ts").get<double>() == doctest::Approx(1000.5));
  CHECK(conv.at("dur").get<double>() == doctest::Approx(10));
  CHECK(conv.at("tid") == 1);
  CHECK(conv.at("args").at("run") == 1);
  CHECK(conv.at("args").at("context") == 0);
  CHECK(conv.at("args").at("op") == "Convolution2d");
  CHECK(conv.at("args").at("backend") == "CpuRef");
  CHECK(conv.at("args").at("implementation") == "jit:avx2");
  CHECK(conv.at("args").at("input_shapes") == nlohmann::json::parse("[[1,3,8,8],[4,3,3,3]]"));
  CHECK(conv.at("args").at("output_shapes") == nlohmann::json::parse("[[1,4,6,6]]"));
  // The copy into the output has no backend: category "runtime".
  const nlohmann::json& copy = events[7];
  CHECK(copy.at("name") == "output 'y'");
  CHECK(copy.at("cat") == "runtime");
  CHECK(copy.at("args").at("backend") == "");
  CHECK(copy.at("args").at("implementation") == "");
  CHECK(copy.at("tid") == 2);
  CHECK(copy.at("args").at("context") == 1);
  CHECK(copy.at("ts").get<double>() == doctest::Approx(1012));
  CHECK(MakeProfile("conv").EventCount() == 8);
}

TEST_CASE("a layer name that is not UTF-8 still gives a valid trace") {
  const std::string name = std::string("conv\xff\xfe") + "\"quoted\"\n";
  const nlohmann::json trace = Trace(MakeProfile(name));
  CHECK(trace.at("traceEvents")[0].at("name") == "conv\xEF\xBF\xBD\xEF\xBF\xBD\"quoted\"\n");
}

TEST_CASE("an unprofiled run gives an empty trace") {
  const nlohmann::json trace = Trace(TimedProfile{});
  CHECK(trace.at("traceEvents").empty());
  CHECK(trace.at("displayTimeUnit") == "ms");
}

}  // namespace
}  // namespace backplane::sdk_run
