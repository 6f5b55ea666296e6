#include "latency_stats.hpp"

#include <doctest/doctest.h>

namespace backplane::sdk_run {
namespace {

TEST_CASE("nearest-rank percentiles, mean, min and max") {
  std::vector<double> samples;
  for (int i = 100; i >= 1; --i) samples.push_back(i);  // unsorted on purpose
  const LatencyStats stats = Summarize(samples);
  CHECK(stats.count == 100);
  CHECK(stats.p50 == 50);
  CHECK(stats.p90 == 90);
  CHECK(stats.p99 == 99);
  CHECK(stats.mean == doctest::Approx(50.5));
  CHECK(stats.min == 1);
  CHECK(stats.max == 100);
}

TEST_CASE("few samples: p99 of 10 runs is the slowest, one sample is every percentile") {
  const LatencyStats ten = Summarize({5, 1, 2, 3, 4, 6, 7, 8, 9, 10});
  CHECK(ten.p50 == 5);
  CHECK(ten.p90 == 9);
  CHECK(ten.p99 == 10);
  const LatencyStats one = Summarize({2.5});
  CHECK(one.p50 == 2.5);
  CHECK(one.p99 == 2.5);
  CHECK(one.count == 1);
}

TEST_CASE("no samples: all zero") {
  const LatencyStats stats = Summarize({});
  CHECK(stats.count == 0);
  CHECK(stats.p50 == 0);
  CHECK(stats.mean == 0);
}

}  // namespace
}  // namespace backplane::sdk_run
