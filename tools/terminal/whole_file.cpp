#include "whole_file.hpp"

#include <backplane/path_text.hpp>

#include <cerrno>
#include <cstdio>
#include <new>

namespace backplane::tools {

namespace {

// Opens UTF-8 `path` for writing; nullptr with errno set when it cannot.
std::FILE* OpenForWriting(const std::string& path) noexcept {
#if defined(_WIN32)
  // fopen would read the name in the ANSI code page: open its UTF-16 form.
  try {
    return ::_wfopen(PathFromUtf8(path).c_str(), L"wb");
  } catch (const std::bad_alloc&) {  // no memory for the conversion
    errno = ENOMEM;
    return nullptr;
  }
#else
  return std::fopen(path.c_str(), "wb");
#endif
}

}  // namespace

int WriteWholeFile(const std::string& path, const std::string& text) noexcept {
  const auto reason = [](int error_number) { return error_number != 0 ? error_number : EIO; };
  errno = 0;
  std::FILE* stream = OpenForWriting(path);
  if (stream == nullptr) return reason(errno);
  errno = 0;
  const bool written = std::fwrite(text.data(), 1, text.size(), stream) == text.size();
  int error_number = written ? 0 : reason(errno);
  errno = 0;
  if (std::fclose(stream) != 0 && error_number == 0) error_number = reason(errno);
  return error_number;
}

}  // namespace backplane::tools
