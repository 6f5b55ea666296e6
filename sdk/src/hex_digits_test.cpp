// HexDigits: two lower-case digits per byte, high nibble first, every byte value.
#include <backplane/hex_digits.hpp>

#include <doctest/doctest.h>

#include <array>
#include <cstdio>

TEST_CASE("hex digits: two lower-case digits per byte, most significant nibble first") {
  const std::array<unsigned char, 4> bytes{0x0f, 0xa0, 0x00, 0xff};
  CHECK(backplane::HexDigits(bytes.data(), bytes.size()) == "0fa000ff");
  CHECK(backplane::HexDigits(bytes.data(), 1) == "0f");
  CHECK(backplane::HexDigits(bytes.data(), 0).empty());
  // Every byte value, against the standard library's formatting.
  for (unsigned value = 0; value < 256; ++value) {
    const auto byte = static_cast<unsigned char>(value);
    char expected[3];
    std::snprintf(expected, sizeof expected, "%02x", value);
    CHECK(backplane::HexDigits(&byte, 1) == expected);
  }
}
