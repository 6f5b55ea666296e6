// Test-only: random inputs and the closeness check the ops' tests share.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace backplane::reference::testing {

// `count` values uniform in [-1, 1), the same for the same seed.
inline std::vector<float> Random(std::int64_t count, unsigned seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> values(static_cast<std::size_t>(count));
  for (auto& v : values) v = uniform(generator);
  return values;
}

// Every element within `relative` of the largest expected magnitude; reports the first miss.
inline void CheckClose(const std::vector<float>& actual, const std::vector<double>& expected,
                       double relative = 1e-5) {
  REQUIRE(actual.size() == expected.size());
  double scale = 0.0;
  for (const double e : expected) scale = std::max(scale, std::abs(e));
  const double tolerance = relative * std::max(scale, 1e-30);
  std::size_t misses = 0, first = 0;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    if (!(std::abs(actual[i] - expected[i]) <= tolerance)) {
      if (misses++ == 0) first = i;
    }
  }
  CAPTURE(misses);
  CHECK_MESSAGE(misses == 0, "first mismatch at " << first << ": " << actual[first] << " vs " << expected[first]);
}

}  // namespace backplane::reference::testing
