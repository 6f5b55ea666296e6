#include "text_style.hpp"

namespace backplane::tools {

std::string TextStyle::Heading(std::string_view text) const { return Wrap("1", text); }
std::string TextStyle::Good(std::string_view text) const { return Wrap("32", text); }
std::string TextStyle::Bad(std::string_view text) const { return Wrap("31", text); }
std::string TextStyle::Notice(std::string_view text) const { return Wrap("33", text); }
std::string TextStyle::Name(std::string_view text) const { return Wrap("1;36", text); }

std::string TextStyle::Wrap(std::string_view code, std::string_view text) const {
  if (!colour_) return std::string(text);
  std::string wrapped = "\x1b[";
  wrapped.append(code).append("m").append(text).append("\x1b[0m");
  return wrapped;
}

std::string Plural(std::size_t count, std::string_view one, std::string_view many) {
  return std::to_string(count) + " " + std::string(count == 1 ? one : many);
}

}  // namespace backplane::tools
