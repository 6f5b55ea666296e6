#include "latency_stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace backplane::sdk_run {

namespace {

constexpr std::size_t kBuckets = static_cast<std::size_t>(LatencyRecorder::kHighestExponent -
                                                          LatencyRecorder::kLowestExponent) *
                                 LatencyRecorder::kBucketsPerOctave;

// The 1-based nearest rank of `percent` among `count` runs. 99.9 has no exact binary form: a
// rank a rounding error above a whole number is that number (p99.9 of 1000 runs is the 999th,
// not the 1000th).
std::size_t NearestRank(double percent, std::size_t count) {
  const double exact = percent / 100.0 * static_cast<double>(count);
  const double rank = std::ceil(exact - exact * 1e-12);
  return std::min(count, rank < 1 ? std::size_t{1} : static_cast<std::size_t>(rank));
}

// The bucket of `ms`: octave (power of two above kLowestMs) times kBucketsPerOctave plus the
// equal-width slice of that octave it falls in; clamped to the first and last bucket.
std::size_t BucketOf(double ms) {
  constexpr int kOctave = LatencyRecorder::kBucketsPerOctave;
  if (!(ms >= std::ldexp(1.0, LatencyRecorder::kLowestExponent))) return 0;
  int exponent = 0;
  const double mantissa = std::frexp(ms, &exponent);  // ms = mantissa * 2^exponent, mantissa in [0.5, 1)
  const int octave = exponent - 1 - LatencyRecorder::kLowestExponent;
  if (octave >= LatencyRecorder::kHighestExponent - LatencyRecorder::kLowestExponent) return kBuckets - 1;
  const auto slice = std::min(static_cast<int>((2 * mantissa - 1) * kOctave), kOctave - 1);
  return static_cast<std::size_t>(octave) * kOctave + static_cast<std::size_t>(slice);
}

}  // namespace

bool IsValidPercentile(double percent) { return percent > 0 && percent <= 100; }

std::string PercentileLabel(double percent) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "p%.10g", percent);
  return buffer;
}

void LatencyRecorder::Add(double ms) {
  if (!(ms > 0)) ms = 0;
  min_ = count_ == 0 ? ms : std::min(min_, ms);
  max_ = count_ == 0 ? ms : std::max(max_, ms);
  ++count_;
  sum_ += ms;
  if (exact() && samples_.size() < kExactSamples) {
    samples_.push_back(ms);
    return;
  }
  ToHistogram();
  Count(ms);
}

void LatencyRecorder::Merge(const LatencyRecorder& other) {
  if (other.count_ == 0) return;
  min_ = count_ == 0 ? other.min_ : std::min(min_, other.min_);
  max_ = count_ == 0 ? other.max_ : std::max(max_, other.max_);
  count_ += other.count_;
  sum_ += other.sum_;
  if (exact() && other.exact() && count_ <= kExactSamples) {
    samples_.insert(samples_.end(), other.samples_.begin(), other.samples_.end());
    return;
  }
  ToHistogram();
  for (double ms : other.samples_) Count(ms);
  for (std::size_t bucket = 0; bucket < other.histogram_.size(); ++bucket) {
    histogram_[bucket] += other.histogram_[bucket];
  }
}

void LatencyRecorder::Reserve(std::size_t runs) {
  if (exact()) samples_.reserve(std::min(runs, kExactSamples));
}

std::size_t LatencyRecorder::MemoryBytes() const {
  return samples_.capacity() * sizeof(double) + histogram_.capacity() * sizeof(std::uint64_t);
}

void LatencyRecorder::ToHistogram() {
  if (!exact()) return;
  histogram_.assign(kBuckets, 0);
  for (double ms : samples_) Count(ms);
  std::vector<double>().swap(samples_);
}

void LatencyRecorder::Count(double ms) { ++histogram_[BucketOf(ms)]; }

double LatencyRecorder::BucketValue(std::size_t bucket) const {
  const auto octave = static_cast<int>(bucket / kBucketsPerOctave);
  const double slice = static_cast<double>(bucket % kBucketsPerOctave);
  const double lower = std::ldexp(1 + slice / kBucketsPerOctave, octave + kLowestExponent);
  // The middle of the bucket: within half its width of every time in it.
  return std::clamp(lower * (1 + 0.5 / kBucketsPerOctave), min_, max_);
}

LatencyStats LatencyRecorder::Summarize(const std::vector<double>& percents) const {
  LatencyStats stats;
  for (double percent : percents) stats.percentiles.push_back({percent, 0});
  if (count_ == 0) return stats;
  stats.count = count_;
  stats.mean = sum_ / static_cast<double>(count_);
  stats.min = min_;
  stats.max = max_;
  if (exact()) {
    std::vector<double> sorted = samples_;
    std::sort(sorted.begin(), sorted.end());
    for (PercentileValue& percentile : stats.percentiles) {
      percentile.ms = sorted[NearestRank(percentile.percent, count_) - 1];
    }
    return stats;
  }
  stats.percentile_relative_error = kRelativeError;
  for (PercentileValue& percentile : stats.percentiles) {
    const std::size_t rank = NearestRank(percentile.percent, count_);
    std::uint64_t below = 0;  // runs in the buckets before `bucket`
    std::size_t bucket = 0;
    while (below + histogram_[bucket] < rank) below += histogram_[bucket++];
    // The fastest and the slowest run are known exactly.
    percentile.ms = rank == 1 ? min_ : rank == count_ ? max_ : BucketValue(bucket);
  }
  return stats;
}

LatencyStats Summarize(const std::vector<double>& samples_ms, const std::vector<double>& percents) {
  LatencyRecorder recorder;
  for (double ms : samples_ms) recorder.Add(ms);
  return recorder.Summarize(percents);
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
