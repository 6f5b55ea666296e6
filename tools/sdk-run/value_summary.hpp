// A few numbers that characterise a tensor's values, for the report.
#pragma once

#include "host_tensor.hpp"

#include <cstddef>

namespace backplane::sdk_run {

// Over the finite elements; non_finite counts NaN and infinities. All zero for no elements.
struct ValueSummary {
  double min = 0;
  double max = 0;
  double mean = 0;
  std::size_t non_finite = 0;
};

ValueSummary SummarizeValues(const HostTensor& tensor);

}  // namespace backplane::sdk_run
