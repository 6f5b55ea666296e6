// Outputs whose extent depends on the input values (onnx::ImportedModel::trimmed_outputs:
// NonZero, Compress, Unique, NonMaxSuppression): the network computes them in an upper-bound
// shape with a count output each; sdk-run reports, writes and compares them as the model
// defines them, as onnx::Session::Run returns them.
#pragma once

#include "host_tensor.hpp"

#include <backplane/onnx_importer.hpp>

#include <vector>

namespace backplane::sdk_run {

// `outputs` (a run's, in signature order) with each bound-shaped one cut to its valid extent
// (onnx::TrimOutput, the one owner of that rule) and the count outputs left out. Throws as
// onnx::TrimOutput (a backend that broke the layer's contract).
std::vector<HostTensor> TrimOutputs(std::vector<HostTensor> outputs, const std::vector<onnx::TrimmedOutput>& trimmed);

// Whether `name` is a count output of `trimmed` (not an output of the model).
bool IsCountOutput(const std::string& name, const std::vector<onnx::TrimmedOutput>& trimmed);

// The trimmed output named `name`, or null.
const onnx::TrimmedOutput* FindTrimmed(const std::string& name, const std::vector<onnx::TrimmedOutput>& trimmed);

}  // namespace backplane::sdk_run
