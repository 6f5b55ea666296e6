// Latency percentiles of a set of timed runs.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace backplane::sdk_run {

// The percentiles reported when --percentiles is not given.
inline const std::vector<double> kDefaultPercentiles = {50, 90, 99};

struct PercentileValue {
  double percent = 0;  // in (0, 100]
  double ms = 0;
};

// Milliseconds. Value type; every value zero for no samples (the percentiles are still listed).
struct LatencyStats {
  std::size_t count = 0;
  std::vector<PercentileValue> percentiles;  // in the order asked for
  double mean = 0;
  double min = 0;
  double max = 0;
};

// Whether `percent` can be asked for: 0 < percent <= 100 (NaN is not).
bool IsValidPercentile(double percent);

// "p50", "p99.9", "p99.99": the name of a percentile in the text and JSON reports.
std::string PercentileLabel(double percent);

// Percentiles by the nearest-rank method: the smallest sample with at least p% of the samples
// at or below it (p99 of 10 runs is the slowest one, p100 is the max). `percents` must be
// valid (IsValidPercentile).
LatencyStats Summarize(std::vector<double> samples_ms,
                       const std::vector<double>& percents = kDefaultPercentiles);

// --max-latency-ms: the statistic checked and the verdict. Value type.
struct LatencyLimit {
  double limit_ms = 0;      // 0: no limit
  PercentileValue checked;  // the highest percentile of the stats
  bool within = true;       // checked.ms <= limit_ms, or no limit
};

// Checks the highest percentile of `stats` against `limit_ms` (0: no limit, always within).
// With no samples the percentiles are 0, so within.
LatencyLimit CheckLatencyLimit(const LatencyStats& stats, double limit_ms);

}  // namespace backplane::sdk_run
