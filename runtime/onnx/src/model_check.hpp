// For the importer's tests: import a model from the test data, run it on CpuRef through the
// public runtime API, and compare its outputs with the expected .npy files beside it.
#pragma once

#include <backplane/npy.hpp>
#include <backplane/onnx_importer.hpp>

#include <map>
#include <string>
#include <vector>

namespace backplane::onnx::testing {

// The committed test data folder (tests/data).
std::string DataPath(const std::string& file);

// The elements of an f32 array (REQUIREs f32).
std::vector<float> Floats(const NpyArray& array);

// max |actual - expected| / max |expected| (0 when both are all zero); f32 only.
double MaxRelativeError(const NpyArray& expected, const NpyArray& actual);

struct ModelRun {
  std::map<std::string, NpyArray> outputs;  // by graph output name
  double import_ms = 0;
  double load_ms = 0;                       // Optimize + LoadNetwork
  double run_ms = 0;                        // one Run
};

// Loads `model` on CpuRef, runs it once with `inputs` (by graph input name) and returns the
// outputs (import_ms stays 0). Throws what the runtime throws.
ModelRun RunImportedOnCpuRef(const ImportedModel& model, const std::map<std::string, NpyArray>& inputs);

// Imports `folder`/`stem`.onnx, feeds each graph input from `data_stem`.<input>.npy in `folder`
// (default: `stem`), runs it once on CpuRef and returns the outputs. Throws what the importer
// or runtime throws.
ModelRun RunOnCpuRef(const std::string& folder, const std::string& stem, const ImportOptions& options = {},
                     const std::string& data_stem = {});

// RunOnCpuRef, then for every graph output: the error against `stem`.<output>.npy is at most
// `tolerance` (doctest CHECKs). `expected_stem` replaces `stem` for the .npy files (inputs
// and outputs). Returns the run.
ModelRun CheckMatchesExpected(const std::string& folder, const std::string& stem, const ImportOptions& options = {},
                              double tolerance = 1e-4, const std::string& expected_stem = {});

// A file in a fresh temporary folder, removed (with the folder) at the end of its scope.
class TempFile {
 public:
  TempFile(const std::string& name, const std::string& content);
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string folder_;
  std::string path_;
};

}  // namespace backplane::onnx::testing
