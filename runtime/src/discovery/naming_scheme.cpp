#include "discovery/naming_scheme.hpp"

namespace backplane::discovery {

namespace {

bool IsAlnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

// Consumes [A-Za-z0-9]+ from the front of `text`; false if there is none.
bool ConsumeAlnum(std::string_view& text) {
  std::size_t n = 0;
  while (n < text.size() && IsAlnum(text[n])) ++n;
  if (n == 0) return false;
  text.remove_prefix(n);
  return true;
}

bool ConsumeLiteral(std::string_view& text, std::string_view literal) {
  if (text.substr(0, literal.size()) != literal) return false;
  text.remove_prefix(literal.size());
  return true;
}

// Length of the "<vendor>_<name>_backend" prefix of `name`, or 0 when it does not start so.
std::size_t StemLength(std::string_view name) {
  std::string_view rest = name;
  if (!ConsumeAlnum(rest) || !ConsumeLiteral(rest, "_") || !ConsumeAlnum(rest) ||
      !ConsumeLiteral(rest, "_backend")) {
    return 0;
  }
  return name.size() - rest.size();
}

// (".<digits>")* to the end.
bool IsVersionSuffix(std::string_view text) {
  while (!text.empty()) {
    if (!ConsumeLiteral(text, ".")) return false;
    std::size_t n = 0;
    while (n < text.size() && text[n] >= '0' && text[n] <= '9') ++n;
    if (n == 0) return false;
    text.remove_prefix(n);
  }
  return true;
}

// What follows the stem: ".so" plus an optional version, or exactly ".dll" / ".dylib".
bool IsLibrarySuffix(std::string_view rest, LibrarySuffix suffix) {
  switch (suffix) {
    case LibrarySuffix::kSo:
      return ConsumeLiteral(rest, ".so") && IsVersionSuffix(rest);
    case LibrarySuffix::kDll:
      return rest == ".dll";
    case LibrarySuffix::kDylib:
      return rest == ".dylib";
  }
  return false;
}

}  // namespace

LibrarySuffix NativeLibrarySuffix() {
#if defined(_WIN32)
  return LibrarySuffix::kDll;
#elif defined(__APPLE__)
  return LibrarySuffix::kDylib;
#else
  return LibrarySuffix::kSo;
#endif
}

bool MatchesNamingScheme(std::string_view file_name, LibrarySuffix suffix) {
  const std::size_t stem = StemLength(file_name);
  return stem != 0 && IsLibrarySuffix(file_name.substr(stem), suffix);
}

bool IsManifestFileName(std::string_view file_name) {
  const std::size_t stem = StemLength(file_name);
  return stem != 0 && file_name.substr(stem) == ".json";
}

std::string_view BackendStem(std::string_view file_name, LibrarySuffix suffix) {
  if (!MatchesNamingScheme(file_name, suffix) && !IsManifestFileName(file_name)) return {};
  return file_name.substr(0, StemLength(file_name));
}

}  // namespace backplane::discovery
