#include "value_summary.hpp"

#include <cmath>
#include <limits>

namespace backplane::sdk_run {

ValueSummary SummarizeValues(const HostTensor& tensor) {
  ValueSummary summary;
  double sum = 0;
  std::size_t finite = 0;
  summary.min = std::numeric_limits<double>::infinity();
  summary.max = -std::numeric_limits<double>::infinity();
  for (const double value : AsDoubles(tensor)) {
    if (!std::isfinite(value)) {
      ++summary.non_finite;
      continue;
    }
    summary.min = std::fmin(summary.min, value);
    summary.max = std::fmax(summary.max, value);
    sum += value;
    ++finite;
  }
  if (finite == 0) {
    summary.min = summary.max = 0;
    return summary;
  }
  summary.mean = sum / static_cast<double>(finite);
  return summary;
}

}  // namespace backplane::sdk_run
