// The ONNX backend test suite (onnx/backend/test/data, Debian's libonnx-testdata) run in-process
// on Backplane. Owns the suite's rules as this project applies them: which folders are cases,
// which cases are set aside (training ops, bfloat16, sequence/map/optional-typed graphs), how a
// case runs (its model imported with Backplane::onnx, loaded on a runner's backend preference,
// fed each test_data_set_*/input_*.pb) and how an output compares with output_*.pb (the suite's
// tolerances). Single-threaded use; a case that throws is a refusal, never a crash of the run.
#pragma once

#include "constant_tensor.hpp"

#include <backplane/runtime.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace backplane::conformance {

// The suite's comparison (numpy.testing.assert_allclose as onnx's backend test runner calls it).
inline constexpr double kRelativeTolerance = 1e-3;
inline constexpr double kAbsoluteTolerance = 1e-7;

// One case: a folder holding model.onnx and test_data_set_<n>/ folders.
struct SuiteCase {
  std::string name;  // "node/test_abs": its kind folder and its own
  std::filesystem::path folder;
};

// The cases under `root` (the suite's data folder) in its node, pytorch-converted,
// pytorch-operator and simple folders (not "real": those models are downloaded by URL), sorted
// by name. A missing kind folder contributes none.
std::vector<SuiteCase> FindCases(const std::filesystem::path& root);

enum class Verdict {
  kPass,      // every output of every data set within tolerance
  kRefused,   // the import, load or run refused it with an error (detail: the error)
  kWrong,     // it ran and an output differs (detail: which, where, by how much)
  kSetAside,  // outside what the suite is measured on (detail: why)
};
const char* ToString(Verdict verdict);  // "pass", "refused", "wrong", "set aside"

struct CaseResult {
  Verdict verdict = Verdict::kRefused;
  std::string op;      // the op it tests: a node case's op type ("(expanded)" for function
                       // bodies), else the kind folder
  std::string detail;  // empty for a pass
};

// Runs `test` on `runtime` with `backends` as the preference list (fallback allowed, as an
// application would load it). Catches every Exception and std::exception into a refusal.
CaseResult RunCase(const SuiteCase& test, Runtime& runtime, const std::vector<BackendId>& backends);

// Empty when `actual` matches `expected`: the same type and shape; floating-point elements with
// |actual - expected| <= kAbsoluteTolerance + kRelativeTolerance * |expected| (NaN where NaN,
// infinities equal); integer and bool elements exact. Else what differs, e.g. "3 of 24 elements
// differ, the largest at [5]: expected 1, got 0.5".
std::string CompareTensors(const onnx::ConstantTensor& expected, const onnx::ConstantTensor& actual);

}  // namespace backplane::conformance
