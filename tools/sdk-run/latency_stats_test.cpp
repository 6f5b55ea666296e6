#include "latency_stats.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace backplane::sdk_run {
namespace {

// The value of `percent` in `stats`; fails the test when it was not asked for.
double At(const LatencyStats& stats, double percent) {
  for (const PercentileValue& value : stats.percentiles) {
    if (value.percent == percent) return value.ms;
  }
  FAIL("no percentile " << percent);
  return 0;
}

TEST_CASE("nearest-rank percentiles, mean, min and max") {
  std::vector<double> samples;
  for (int i = 100; i >= 1; --i) samples.push_back(i);  // unsorted on purpose
  const LatencyStats stats = Summarize(samples);
  CHECK(stats.count == 100);
  REQUIRE(stats.percentiles.size() == 3);  // the default list: 50, 90, 99
  CHECK(At(stats, 50) == 50);
  CHECK(At(stats, 90) == 90);
  CHECK(At(stats, 99) == 99);
  CHECK(stats.mean == doctest::Approx(50.5));
  CHECK(stats.min == 1);
  CHECK(stats.max == 100);
}

TEST_CASE("few samples: p99 of 10 runs is the slowest, one sample is every percentile") {
  const LatencyStats ten = Summarize({5, 1, 2, 3, 4, 6, 7, 8, 9, 10});
  CHECK(At(ten, 50) == 5);
  CHECK(At(ten, 90) == 9);
  CHECK(At(ten, 99) == 10);
  const LatencyStats one = Summarize({2.5});
  CHECK(At(one, 50) == 2.5);
  CHECK(At(one, 99) == 2.5);
  CHECK(one.count == 1);
}

TEST_CASE("the percentiles asked for, in the order asked for") {
  std::vector<double> samples;
  for (int i = 1; i <= 1000; ++i) samples.push_back(i);
  const LatencyStats stats = Summarize(samples, {99.9, 25, 100});
  REQUIRE(stats.percentiles.size() == 3);
  CHECK(stats.percentiles[0].percent == 99.9);
  CHECK(stats.percentiles[0].ms == 999);
  CHECK(stats.percentiles[1].ms == 250);
  CHECK(stats.percentiles[2].ms == 1000);  // p100 is the max
  CHECK(Summarize(samples, {0.05}).percentiles[0].ms == 1);  // rank 0.5 rounds up to the first
}

TEST_CASE("no samples: all zero, the percentiles still listed") {
  const LatencyStats stats = Summarize({}, {50, 99.9});
  CHECK(stats.count == 0);
  REQUIRE(stats.percentiles.size() == 2);
  CHECK(stats.percentiles[1].percent == 99.9);
  CHECK(stats.percentiles[1].ms == 0);
  CHECK(stats.mean == 0);
}

TEST_CASE("exact up to kExactSamples runs, then a histogram in bounded memory") {
  LatencyRecorder recorder;
  for (std::size_t i = 1; i <= LatencyRecorder::kExactSamples; ++i) recorder.Add(static_cast<double>(i));
  CHECK(recorder.exact());
  CHECK(recorder.Summarize({50}).percentiles[0].ms == LatencyRecorder::kExactSamples / 2);
  CHECK(recorder.Summarize().percentile_relative_error == 0);
  const std::size_t exact_bytes = recorder.MemoryBytes();
  // Ten times as many runs: the memory stays what it was at most, count, mean, min, max exact.
  for (std::size_t i = LatencyRecorder::kExactSamples + 1; i <= 10 * LatencyRecorder::kExactSamples; ++i) {
    recorder.Add(static_cast<double>(i));
  }
  CHECK_FALSE(recorder.exact());
  CHECK(recorder.MemoryBytes() <= 256u * 1024);
  CHECK(recorder.MemoryBytes() <= exact_bytes);
  const LatencyStats stats = recorder.Summarize({50, 99.9, 100});
  CHECK(stats.count == 10 * LatencyRecorder::kExactSamples);
  CHECK(stats.mean == doctest::Approx(5e5 + 0.5));
  CHECK(stats.min == 1);
  CHECK(stats.max == 1e6);
  CHECK(stats.percentile_relative_error == LatencyRecorder::kRelativeError);
  CHECK(stats.percentiles[0].ms == doctest::Approx(5e5).epsilon(LatencyRecorder::kRelativeError));
  CHECK(stats.percentiles[1].ms == doctest::Approx(999000).epsilon(LatencyRecorder::kRelativeError));
  CHECK(stats.percentiles[2].ms == 1e6);  // p100 is the max, exactly
}

TEST_CASE("histogram percentiles are within kRelativeError of the exact ones, from 1 us to a minute") {
  CHECK(LatencyRecorder::kRelativeError < 0.001);
  std::mt19937_64 random(41);
  std::uniform_real_distribution<double> exponent(-3, 4.8);  // 10^-3 .. 10^4.8 ms, log-uniform
  std::vector<double> samples;
  LatencyRecorder recorder;
  for (std::size_t i = 0; i < 3 * LatencyRecorder::kExactSamples; ++i) {
    samples.push_back(std::pow(10.0, exponent(random)));
    recorder.Add(samples.back());
  }
  REQUIRE_FALSE(recorder.exact());
  std::vector<double> percents;
  for (double p = 0.5; p < 100; p += 0.5) percents.push_back(p);
  percents.push_back(99.99);
  const LatencyStats approximate = recorder.Summarize(percents);
  std::sort(samples.begin(), samples.end());
  for (const PercentileValue& value : approximate.percentiles) {
    const double exact = samples[static_cast<std::size_t>(std::ceil(value.percent / 100 * samples.size() - 1e-6)) - 1];
    INFO("p" << value.percent << ": " << value.ms << " against " << exact);
    CHECK(std::abs(value.ms - exact) <= exact * LatencyRecorder::kRelativeError);
  }
}

TEST_CASE("merged recorders: exact while the total fits, else the histogram of all runs") {
  LatencyRecorder a;
  LatencyRecorder b;
  for (int i = 1; i <= 10; ++i) a.Add(i);
  for (int i = 11; i <= 20; ++i) b.Add(i);
  LatencyRecorder merged;
  merged.Merge(a);
  merged.Merge(b);
  CHECK(merged.exact());
  CHECK(merged.count() == 20);
  CHECK(merged.Summarize({50}).percentiles[0].ms == 10);

  LatencyRecorder big;
  for (std::size_t i = 0; i < LatencyRecorder::kExactSamples; ++i) big.Add(100);
  merged.Merge(big);  // the total passes kExactSamples: the twenty small runs go to the histogram too
  CHECK_FALSE(merged.exact());
  const LatencyStats stats = merged.Summarize({0.01, 50});
  CHECK(stats.count == LatencyRecorder::kExactSamples + 20);
  CHECK(stats.min == 1);
  CHECK(stats.percentiles[0].ms == doctest::Approx(11).epsilon(LatencyRecorder::kRelativeError));  // rank 11
  CHECK(stats.percentiles[1].ms == doctest::Approx(100).epsilon(LatencyRecorder::kRelativeError));
  LatencyRecorder histograms;  // two histograms add up
  histograms.Merge(merged);
  histograms.Merge(merged);
  CHECK(histograms.count() == 2 * merged.count());
  CHECK(histograms.Summarize({50}).percentiles[0].ms == stats.percentiles[1].ms);
}

TEST_CASE("times outside the histogram's range: counted at its ends, percentiles kept within min and max") {
  LatencyRecorder recorder;
  recorder.Add(-1);  // a clock going back counts as 0
  recorder.Add(std::numeric_limits<double>::quiet_NaN());
  for (std::size_t i = 0; i < LatencyRecorder::kExactSamples; ++i) recorder.Add(1e12);  // 30 years
  const LatencyStats stats = recorder.Summarize({0.001, 50, 100});
  CHECK(stats.min == 0);
  CHECK(stats.max == 1e12);
  // The second run (0 ms) lies below the lowest bucket: its value is that bucket's, about 1 ns.
  const double lowest_ms = std::ldexp(1.0, LatencyRecorder::kLowestExponent);
  CHECK(stats.percentiles[0].ms <= lowest_ms * (1 + LatencyRecorder::kRelativeError));
  CHECK(stats.percentiles[1].ms <= 1e12);
  CHECK(stats.percentiles[1].ms >= std::ldexp(1.0, LatencyRecorder::kHighestExponent) * 0.99);
  CHECK(stats.percentiles[2].ms == 1e12);
}

TEST_CASE("valid percentiles are above 0 and at most 100, labels drop trailing zeros") {
  CHECK(IsValidPercentile(100));
  CHECK(IsValidPercentile(0.001));
  CHECK_FALSE(IsValidPercentile(0));
  CHECK_FALSE(IsValidPercentile(-1));
  CHECK_FALSE(IsValidPercentile(100.5));
  CHECK_FALSE(IsValidPercentile(std::numeric_limits<double>::quiet_NaN()));
  CHECK(PercentileLabel(50) == "p50");
  CHECK(PercentileLabel(99.9) == "p99.9");
  CHECK(PercentileLabel(99.99) == "p99.99");
  CHECK(PercentileLabel(100) == "p100");
}

TEST_CASE("the latency limit checks the highest percentile, wherever it is in the list") {
  std::vector<double> samples;
  for (int i = 1; i <= 100; ++i) samples.push_back(i);
  const LatencyStats stats = Summarize(samples, {99, 50, 90});
  const LatencyLimit above = CheckLatencyLimit(stats, 98.5);
  CHECK(above.checked.percent == 99);
  CHECK(above.checked.ms == 99);
  CHECK(above.limit_ms == 98.5);
  CHECK_FALSE(above.within);
  CHECK(CheckLatencyLimit(stats, 99).within);  // at the limit is within
  CHECK(CheckLatencyLimit(stats, 0).within);   // no limit
  CHECK_FALSE(CheckLatencyLimit(Summarize(samples, {50, 100}), 99.5).within);  // p100 = 100
}

}  // namespace
}  // namespace backplane::sdk_run
