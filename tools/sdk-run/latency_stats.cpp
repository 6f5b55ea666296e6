#include "latency_stats.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace backplane::sdk_run {

namespace {

double NearestRank(const std::vector<double>& sorted, double percent) {
  const double rank = std::ceil(percent / 100.0 * static_cast<double>(sorted.size()));
  const std::size_t index = rank < 1 ? 0 : static_cast<std::size_t>(rank) - 1;
  return sorted[std::min(index, sorted.size() - 1)];
}

}  // namespace

LatencyStats Summarize(std::vector<double> samples_ms) {
  LatencyStats stats;
  if (samples_ms.empty()) return stats;
  std::sort(samples_ms.begin(), samples_ms.end());
  stats.count = samples_ms.size();
  stats.p50 = NearestRank(samples_ms, 50);
  stats.p90 = NearestRank(samples_ms, 90);
  stats.p99 = NearestRank(samples_ms, 99);
  stats.mean = std::accumulate(samples_ms.begin(), samples_ms.end(), 0.0) / samples_ms.size();
  stats.min = samples_ms.front();
  stats.max = samples_ms.back();
  return stats;
}

}  // namespace backplane::sdk_run
