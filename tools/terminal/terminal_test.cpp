#include "terminal.hpp"

#include <doctest/doctest.h>

namespace backplane::tools {
namespace {

TEST_CASE("colour only on a terminal") {
  CHECK(ShouldColour(true, nullptr, "xterm-256color"));
  CHECK(ShouldColour(true, nullptr, nullptr));
  CHECK_FALSE(ShouldColour(false, nullptr, "xterm-256color"));
}

TEST_CASE("NO_COLOR turns colour off when set and not empty") {
  CHECK_FALSE(ShouldColour(true, "1", "xterm"));
  CHECK_FALSE(ShouldColour(true, "0", "xterm"));  // any value but the empty one
  CHECK(ShouldColour(true, "", "xterm"));
}

TEST_CASE("TERM=dumb turns colour off, other terminals keep it") {
  CHECK_FALSE(ShouldColour(true, nullptr, "dumb"));
  CHECK(ShouldColour(true, nullptr, "dumber"));
  CHECK(ShouldColour(true, nullptr, ""));
  CHECK(ShouldColour(true, nullptr, "vt100"));
}

}  // namespace
}  // namespace backplane::tools
