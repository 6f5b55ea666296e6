#include <backplane/version.hpp>

#include <charconv>

namespace backplane {

// kSdkVersion as compiled into this library, whatever headers the caller was built with.
SdkVersion LoadedSdkVersion() noexcept { return kSdkVersion; }

std::string ToString(BackendApiVersion version) {
  return std::to_string(version.major) + "." + std::to_string(version.minor);
}

std::string ToString(SdkVersion version) {
  return std::to_string(version.major) + "." + std::to_string(version.minor) + "." +
         std::to_string(version.patch);
}

bool ParseBackendApiVersion(const std::string& text, BackendApiVersion& out) {
  const auto dot = text.find('.');
  if (dot == std::string::npos || dot == 0 || dot + 1 == text.size()) return false;
  BackendApiVersion parsed;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  auto major = std::from_chars(begin, begin + dot, parsed.major);
  if (major.ec != std::errc() || major.ptr != begin + dot) return false;
  auto minor = std::from_chars(begin + dot + 1, end, parsed.minor);
  if (minor.ec != std::errc() || minor.ptr != end) return false;
  out = parsed;
  return true;
}

}  // namespace backplane
