// --expected NAME=FILE.npy: reference outputs the last run is compared with (like ExecuteNetwork
// -C, onnxruntime's output check).
#pragma once

#include "comparison.hpp"
#include "host_tensor.hpp"

#include <backplane/execution.hpp>
#include <backplane/onnx_importer.hpp>

#include <map>
#include <string>
#include <vector>

namespace backplane::sdk_run {

struct ExpectedTensor {
  std::string file;
  HostTensor tensor;  // named after the output
};

// Reads each --expected file (output name -> .npy path), in signature order, before any run.
// Throws ToolError (kBadInput), naming `option` (e.g. "--expected", "--expected-set 2"), the
// output and the file, for a name that is no output of the network (listing its outputs), a
// missing or malformed file, and a type or shape other than the output's. A bound-shaped output
// of `trimmed` (its extent decided by the run) is checked for its type and every dimension but
// the trimmed one, which must be at most the bound (the comparison after the run checks the
// rest); count outputs are not the model's, so no file may name them.
std::vector<ExpectedTensor> ReadExpectedOutputs(const std::map<std::string, std::string>& files,
                                                const NetworkSignature& signature,
                                                const std::string& option = "--expected",
                                                const std::vector<onnx::TrimmedOutput>& trimmed = {});

// One comparison per expected tensor (CompareOutput, the file's tensor is the reference), in
// the order of `expected`. `outputs` are the run's, which has every expected name (the
// signature's outputs).
struct ExpectedOutput {
  std::string file;
  OutputDifference difference;
};
std::vector<ExpectedOutput> CompareWithExpected(const std::vector<HostTensor>& outputs,
                                                const std::vector<ExpectedTensor>& expected,
                                                double tolerance);

}  // namespace backplane::sdk_run
