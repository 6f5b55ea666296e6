// The definitions of backplane/path_text.hpp: the one place that decides how a path becomes text
// and back. UTF-8 everywhere: on Windows through platform/windows_text (UTF-16 file names), on
// POSIX byte for byte.
#include <backplane/path_text.hpp>

#if defined(_WIN32)
#include "platform/windows_text.hpp"
#endif

namespace backplane {

std::string PathToUtf8(const std::filesystem::path& path) {
#if defined(_WIN32)
  return platform::Utf8FromWide(path.native());
#else
  return path.native();
#endif
}

std::filesystem::path PathFromUtf8(std::string_view text) {
#if defined(_WIN32)
  return std::filesystem::path(platform::WideFromUtf8(text));
#else
  return std::filesystem::path(std::string(text));
#endif
}

}  // namespace backplane
