// --compare-backends and --expected: how far outputs are from reference outputs.
#pragma once

#include "host_tensor.hpp"

#include <string>
#include <vector>

namespace backplane::sdk_run {

// One output of A compared with the same output of B (the reference).
struct OutputDifference {
  std::string name;
  TensorInfo info;
  double max_abs_error = 0;      // largest |a - b| over the elements
  double reference_max_abs = 0;  // largest |b|
  // max_abs_error / reference_max_abs; 0 when both are 0, infinity when only B is all zeros.
  double max_rel_error = 0;
  bool within_tolerance = true;  // max_rel_error <= tolerance
};

// Compares `a` with `reference` element by element; both must have the same type and shape
// (ToolError, kRuntimeFailure, otherwise: the caller checks with a better message). A NaN or
// infinity in one where the other has a different value makes the error infinite; equal
// non-finite values count as no difference. Used by --compare-backends and --expected.
OutputDifference CompareOutput(const HostTensor& a, const HostTensor& reference, double tolerance);

// Compares `a` with `b` output by output (same names, types and shapes, in the same order:
// both come from one model), as CompareOutput does. Throws ToolError
// (kRuntimeFailure) when the two do not have the same outputs.
std::vector<OutputDifference> CompareOutputs(const std::vector<HostTensor>& a,
                                             const std::vector<HostTensor>& b, double tolerance);

}  // namespace backplane::sdk_run
