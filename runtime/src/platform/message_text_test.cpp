#include "platform/message_text.hpp"

#include <doctest/doctest.h>

#include <string>

namespace backplane::platform {

TEST_CASE("message text: short values are shown whole, quoted or not") {
  CHECK(Quoted("f64") == "\"f64\"");
  CHECK(Bounded("linux-arm64") == "linux-arm64");
  CHECK(Quoted("") == "\"\"");
}

TEST_CASE("message text: a long value is cut at the bound with its full length") {
  const std::string huge(200000, 'x');
  CHECK(Quoted(huge) == "\"" + std::string(kMaxQuotedBytes, 'x') + "\xE2\x80\xA6\" (200000 bytes)");
  CHECK(Bounded(huge, 5) == "xxxxx\xE2\x80\xA6 (200000 bytes)");
  CHECK(Quoted(std::string(kMaxQuotedBytes, 'y')) == "\"" + std::string(kMaxQuotedBytes, 'y') + "\"");
}

TEST_CASE("message text: a cut never splits a UTF-8 character") {
  // "é" is two bytes; a bound of 3 would fall inside the second one.
  CHECK(Bounded("a\xC3\xA9\xC3\xA9", 4) == "a\xC3\xA9\xE2\x80\xA6 (5 bytes)");
}

TEST_CASE("message text: control characters cannot forge lines") {
  CHECK(Quoted(std::string("a\nb\tc\0d\x1b", 8)) == "\"a\\nb\\tc\\x00d\\x1b\"");
}

}  // namespace backplane::platform
