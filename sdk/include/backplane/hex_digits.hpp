// Bytes as lower-case hex digits: the one spelling of the digests the SDK's users compare and
// store (the runtime's SHA-256 of a plugin library, GpuOpenCl's program cache keys and entry
// checks, the tests' expected hashes) and of the byte escapes in the runtime's messages.
// Header-only, so a plugin that uses it imports nothing from the SDK's libraries.
#pragma once

#include <cstddef>
#include <string>

namespace backplane {

// The `count` bytes at `bytes` as 2 * count lower-case hex digits, most significant nibble
// first ({0x0f, 0xa0} gives "0fa0"; no bytes give ""). Pure; throws only std::bad_alloc.
inline std::string HexDigits(const void* bytes, std::size_t count) {
  static constexpr char kDigits[] = "0123456789abcdef";
  const auto* byte = static_cast<const unsigned char*>(bytes);
  std::string hex;
  hex.reserve(count * 2);
  for (std::size_t i = 0; i < count; ++i) {
    hex += kDigits[byte[i] >> 4];
    hex += kDigits[byte[i] & 0xF];
  }
  return hex;
}

}  // namespace backplane
