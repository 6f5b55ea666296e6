// Colour and wording for the tools' text outputs.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace backplane::tools {

// Wraps text in ANSI colour sequences when colour is on; returns it unchanged otherwise.
// Value type; thread-safe.
class TextStyle {
 public:
  explicit TextStyle(bool colour) : colour_(colour) {}
  std::string Heading(std::string_view text) const;  // bold
  std::string Good(std::string_view text) const;     // green
  std::string Bad(std::string_view text) const;      // red
  std::string Notice(std::string_view text) const;   // yellow
  std::string Name(std::string_view text) const;     // bold cyan

 private:
  std::string Wrap(std::string_view code, std::string_view text) const;
  bool colour_;
};

// "1 backend", "2 backends".
std::string Plural(std::size_t count, std::string_view one, std::string_view many);

}  // namespace backplane::tools
