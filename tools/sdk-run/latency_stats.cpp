#include "latency_stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace backplane::sdk_run {

namespace {

double NearestRank(const std::vector<double>& sorted, double percent) {
  // 99.9 has no exact binary form: a rank a rounding error above a whole number is that number
  // (p99.9 of 1000 runs is the 999th, not the 1000th).
  const double exact = percent / 100.0 * static_cast<double>(sorted.size());
  const double rank = std::ceil(exact - exact * 1e-12);
  const std::size_t index = rank < 1 ? 0 : static_cast<std::size_t>(rank) - 1;
  return sorted[std::min(index, sorted.size() - 1)];
}

}  // namespace

bool IsValidPercentile(double percent) { return percent > 0 && percent <= 100; }

std::string PercentileLabel(double percent) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "p%.10g", percent);
  return buffer;
}

LatencyStats Summarize(std::vector<double> samples_ms, const std::vector<double>& percents) {
  LatencyStats stats;
  for (double percent : percents) stats.percentiles.push_back({percent, 0});
  if (samples_ms.empty()) return stats;
  std::sort(samples_ms.begin(), samples_ms.end());
  stats.count = samples_ms.size();
  for (PercentileValue& percentile : stats.percentiles) {
    percentile.ms = NearestRank(samples_ms, percentile.percent);
  }
  stats.mean = std::accumulate(samples_ms.begin(), samples_ms.end(), 0.0) / samples_ms.size();
  stats.min = samples_ms.front();
  stats.max = samples_ms.back();
  return stats;
}

LatencyLimit CheckLatencyLimit(const LatencyStats& stats, double limit_ms) {
  LatencyLimit limit;
  limit.limit_ms = limit_ms;
  for (const PercentileValue& value : stats.percentiles) {
    if (value.percent > limit.checked.percent) limit.checked = value;
  }
  limit.within = limit_ms <= 0 || limit.checked.ms <= limit_ms;
  return limit;
}

}  // namespace backplane::sdk_run
