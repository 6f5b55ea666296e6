#include "latency_stats.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

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

TEST_CASE("valid percentiles are above 0 and at most 100; labels drop trailing zeros") {
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
