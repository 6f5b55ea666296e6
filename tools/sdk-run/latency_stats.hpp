// Latency percentiles of a set of timed runs, recorded in bounded memory.
#pragma once

#include <cstddef>
#include <cstdint>
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
  // 0: the percentiles are exact; else each is within this fraction of the exact one
  // (LatencyRecorder::kRelativeError).
  double percentile_relative_error = 0;
};

// Whether `percent` can be asked for: 0 < percent <= 100 (NaN is not).
bool IsValidPercentile(double percent);

// "p50", "p99.9", "p99.99": the name of a percentile in the text and JSON reports.
std::string PercentileLabel(double percent);

// The run times of timed runs, in memory that does not grow with their number: every sample
// while there are at most kExactSamples of them (percentiles exact), then a histogram of
// kBucketsPerOctave log-spaced buckets per power of two from kLowestMs to kHighestMs (about
// 200 KiB), whose percentiles are within kRelativeError of the exact ones. Count, mean, min
// and max are always exact; a percentile is never below min or above max. Value type; not
// thread-safe (one per execution context, merged after the runs).
class LatencyRecorder {
 public:
  static constexpr std::size_t kExactSamples = 100000;
  static constexpr int kBucketsPerOctave = 512;
  // Half a bucket's width relative to its lower bound: 1 / (2 * kBucketsPerOctave).
  static constexpr double kRelativeError = 1.0 / (2 * kBucketsPerOctave);
  static constexpr int kLowestExponent = -20;  // kLowestMs = 2^-20 ms, about 1 ns
  static constexpr int kHighestExponent = 30;  // kHighestMs = 2^30 ms, about 12 days
  // Times below kLowestMs count in the lowest bucket, above kHighestMs in the highest one
  // (their percentiles are then bounded by min and max, not by kRelativeError).

  // Counts one run of `ms` milliseconds (0 or more; a negative or NaN time counts as 0).
  // Allocates at most the histogram (once) or the samples (amortized); throws std::bad_alloc.
  void Add(double ms);
  // Adds every run `other` counted; the result is exact when the total is at most kExactSamples.
  void Merge(const LatencyRecorder& other);
  // Makes room for `runs` exact samples (at most kExactSamples), so that Add does not allocate
  // between timed runs. Throws std::bad_alloc.
  void Reserve(std::size_t runs);

  std::size_t count() const { return count_; }
  bool exact() const { return histogram_.empty(); }
  // The bytes its containers hold (their capacity): at most kExactSamples samples or the
  // histogram, whichever it has.
  std::size_t MemoryBytes() const;

  // Percentiles by the nearest-rank method: the smallest run time with at least p% of the runs
  // at or below it (p99 of 10 runs is the slowest one, p100 is the max). `percents` must be
  // valid (IsValidPercentile).
  LatencyStats Summarize(const std::vector<double>& percents = kDefaultPercentiles) const;

 private:
  void ToHistogram();
  void Count(double ms);  // into the histogram
  double BucketValue(std::size_t bucket) const;

  std::size_t count_ = 0;
  double sum_ = 0;
  double min_ = 0;
  double max_ = 0;
  std::vector<double> samples_;              // while exact
  std::vector<std::uint64_t> histogram_;     // once not exact: runs per bucket
};

// A LatencyRecorder of `samples_ms`, summarized.
LatencyStats Summarize(const std::vector<double>& samples_ms,
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
