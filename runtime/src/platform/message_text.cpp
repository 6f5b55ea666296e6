#include "platform/message_text.hpp"

#include <backplane/hex_digits.hpp>

namespace backplane::platform {

namespace {

// The first `max` bytes of `text`, not ending inside a UTF-8 multi-byte character.
std::size_t CutPoint(std::string_view text, std::size_t max) {
  if (text.size() <= max) return text.size();
  std::size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return cut;
}

std::string Escaped(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (byte < 0x20 || byte == 0x7f) {
      out += "\\x" + HexDigits(&byte, 1);
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string Bounded(std::string_view text, std::size_t max) {
  const std::size_t cut = CutPoint(text, max);
  std::string out = Escaped(text.substr(0, cut));
  if (cut < text.size()) out += "\xE2\x80\xA6 (" + std::to_string(text.size()) + " bytes)";
  return out;
}

std::string Quoted(std::string_view text, std::size_t max) {
  const std::size_t cut = CutPoint(text, max);
  std::string out = "\"" + Escaped(text.substr(0, cut));
  if (cut < text.size()) return out + "\xE2\x80\xA6\" (" + std::to_string(text.size()) + " bytes)";
  return out + "\"";
}

}  // namespace backplane::platform
