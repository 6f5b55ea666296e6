// What the fuzz targets use to state a reader's promise: a broken one aborts, which libFuzzer
// reports as a crash with the input that broke it.
#pragma once

#include <cstdlib>

namespace backplane::fuzz {

inline void Check(bool condition) {
  if (!condition) std::abort();
}

}  // namespace backplane::fuzz
