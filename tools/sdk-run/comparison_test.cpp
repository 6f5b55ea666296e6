#include "comparison.hpp"

#include "exit_code.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>

namespace backplane::sdk_run {
namespace {

HostTensor Floats(const std::string& name, const std::vector<float>& values) {
  HostTensor tensor = HostTensor::Zeros(name, {TensorShape{static_cast<std::int64_t>(values.size())}});
  std::memcpy(tensor.data.data(), values.data(), tensor.data.size());
  return tensor;
}

TEST_CASE("identical outputs: no error, within any tolerance") {
  const auto differences = CompareOutputs({Floats("y", {1, -2, 3})}, {Floats("y", {1, -2, 3})}, 0);
  REQUIRE(differences.size() == 1);
  CHECK(differences[0].name == "y");
  CHECK(differences[0].max_abs_error == 0);
  CHECK(differences[0].max_rel_error == 0);
  CHECK(differences[0].reference_max_abs == 3);
  CHECK(differences[0].within_tolerance);
}

TEST_CASE("the relative error is the largest difference over B's largest magnitude") {
  const auto differences =
      CompareOutputs({Floats("y", {1.0f, -2.5f, 4.0f})}, {Floats("y", {1.0f, -2.0f, 4.0f})}, 0.1);
  REQUIRE(differences.size() == 1);
  CHECK(differences[0].max_abs_error == doctest::Approx(0.5));
  CHECK(differences[0].reference_max_abs == doctest::Approx(4.0));
  CHECK(differences[0].max_rel_error == doctest::Approx(0.125));
  CHECK_FALSE(differences[0].within_tolerance);  // 0.125 > 0.1
  CHECK(CompareOutputs({Floats("y", {1.0f, -2.5f, 4.0f})}, {Floats("y", {1.0f, -2.0f, 4.0f})}, 0.125)[0]
            .within_tolerance);
}

TEST_CASE("an all-zero reference: infinite relative error unless A is zero too") {
  CHECK(std::isinf(CompareOutputs({Floats("y", {0, 1e-9f})}, {Floats("y", {0, 0})}, 1)[0].max_rel_error));
  CHECK(CompareOutputs({Floats("y", {0, 0})}, {Floats("y", {0, 0})}, 0)[0].within_tolerance);
}

TEST_CASE("NaN and infinity: equal on both sides is no difference, on one side is infinite") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(CompareOutputs({Floats("y", {nan, inf, 1})}, {Floats("y", {nan, inf, 1})}, 0)[0].max_abs_error == 0);
  const auto one_sided = CompareOutputs({Floats("y", {nan, 1})}, {Floats("y", {0, 1})}, 1e9);
  CHECK(std::isinf(one_sided[0].max_abs_error));
  CHECK_FALSE(one_sided[0].within_tolerance);
}

TEST_CASE("outputs that differ in number, name or shape are a runtime failure") {
  try {
    CompareOutputs({Floats("y", {1, 2})}, {Floats("y", {1, 2, 3})}, 0);
    FAIL("no error");
  } catch (const ToolError& error) {
    CHECK(error.code() == ExitCode::kRuntimeFailure);
    CHECK(std::string(error.what()).find("f32 [2] and y f32 [3]") != std::string::npos);
  }
  CHECK_THROWS_AS(CompareOutputs({Floats("y", {1})}, {}, 0), ToolError);
}

TEST_CASE("one output against its reference (--expected): the same measures as a comparison") {
  const OutputDifference difference =
      CompareOutput(Floats("y", {1.0f, -2.5f, 4.0f}), Floats("y", {1.0f, -2.0f, 4.0f}), 0.2);
  CHECK(difference.name == "y");
  CHECK(difference.max_abs_error == doctest::Approx(0.5));
  CHECK(difference.max_rel_error == doctest::Approx(0.125));
  CHECK(difference.within_tolerance);
  CHECK_FALSE(CompareOutput(Floats("y", {1, 2}), Floats("y", {1, 2.5f}), 0.1).within_tolerance);
  try {
    CompareOutput(Floats("y", {1, 2}), Floats("y", {1, 2, 3}), 1);
    FAIL("no error");
  } catch (const ToolError& error) {
    CHECK(std::string(error.what()) == "output y is f32 [2], its reference f32 [3]");
  }
}

}  // namespace
}  // namespace backplane::sdk_run
