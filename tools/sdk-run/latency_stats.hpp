// Latency percentiles of a set of timed runs.
#pragma once

#include <cstddef>
#include <vector>

namespace backplane::sdk_run {

// Milliseconds. Value type; all zero for no samples.
struct LatencyStats {
  std::size_t count = 0;
  double p50 = 0;
  double p90 = 0;
  double p99 = 0;
  double mean = 0;
  double min = 0;
  double max = 0;
};

// Percentiles by the nearest-rank method: the smallest sample with at least p% of the samples
// at or below it (p99 of 10 runs is the slowest one).
LatencyStats Summarize(std::vector<double> samples_ms);

}  // namespace backplane::sdk_run
