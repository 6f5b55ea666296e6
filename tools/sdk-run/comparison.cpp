#include "comparison.hpp"

#include "exit_code.hpp"

#include <cmath>
#include <limits>

namespace backplane::sdk_run {

namespace {

double AbsoluteDifference(double a, double b) {
  if (std::isfinite(a) && std::isfinite(b)) return std::fabs(a - b);
  if (a == b || (std::isnan(a) && std::isnan(b))) return 0;  // the same infinity, or both NaN
  return std::numeric_limits<double>::infinity();
}

}  // namespace

OutputDifference CompareOutput(const HostTensor& a, const HostTensor& reference_tensor,
                               double tolerance) {
  if (a.info != reference_tensor.info) {
    throw ToolError(ExitCode::kRuntimeFailure, "output " + a.name + " is " + Describe(a.info) +
                                                   ", its reference " + Describe(reference_tensor.info));
  }
  const std::vector<double> values = AsDoubles(a);
  const std::vector<double> reference = AsDoubles(reference_tensor);
  OutputDifference difference{a.name, a.info};
  for (std::size_t k = 0; k < values.size(); ++k) {
    difference.max_abs_error =
        std::fmax(difference.max_abs_error, AbsoluteDifference(values[k], reference[k]));
    if (std::isfinite(reference[k])) {
      difference.reference_max_abs = std::fmax(difference.reference_max_abs, std::fabs(reference[k]));
    }
  }
  if (difference.max_abs_error == 0) {
    difference.max_rel_error = 0;
  } else if (difference.reference_max_abs == 0) {
    difference.max_rel_error = std::numeric_limits<double>::infinity();
  } else {
    difference.max_rel_error = difference.max_abs_error / difference.reference_max_abs;
  }
  difference.within_tolerance = difference.max_rel_error <= tolerance;
  return difference;
}

std::vector<OutputDifference> CompareOutputs(const std::vector<HostTensor>& a,
                                             const std::vector<HostTensor>& b, double tolerance) {
  if (a.size() != b.size()) {
    throw ToolError(ExitCode::kRuntimeFailure, "the two runs produced " + std::to_string(a.size()) +
                                                   " and " + std::to_string(b.size()) + " outputs");
  }
  std::vector<OutputDifference> differences;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].name != b[i].name || a[i].info != b[i].info) {
      throw ToolError(ExitCode::kRuntimeFailure,
                      "output " + std::to_string(i + 1) + " differs between the runs: " + a[i].name +
                          " " + Describe(a[i].info) + " and " + b[i].name + " " + Describe(b[i].info));
    }
    differences.push_back(CompareOutput(a[i], b[i], tolerance));
  }
  return differences;
}

}  // namespace backplane::sdk_run
