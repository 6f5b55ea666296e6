#include "whole_file.hpp"

#include <cerrno>
#include <cstdio>

namespace backplane::tools {

int WriteWholeFile(const std::string& path, const std::string& text) noexcept {
  const auto reason = [](int error_number) { return error_number != 0 ? error_number : EIO; };
  errno = 0;
  std::FILE* stream = std::fopen(path.c_str(), "wb");
  if (stream == nullptr) return reason(errno);
  errno = 0;
  const bool written = std::fwrite(text.data(), 1, text.size(), stream) == text.size();
  int error_number = written ? 0 : reason(errno);
  errno = 0;
  if (std::fclose(stream) != 0 && error_number == 0) error_number = reason(errno);
  return error_number;
}

}  // namespace backplane::tools
