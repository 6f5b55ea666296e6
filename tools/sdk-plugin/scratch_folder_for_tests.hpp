// The unit tests' scratch space: a fresh folder under the system's temporary folder, removed
// with its contents when the object goes (errors ignored). Test-only; not thread-safe.
#pragma once

#include "file_writes.hpp"  // RandomSuffix

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>

namespace backplane::sdk_plugin {

class ScratchFolder {
 public:
  ScratchFolder() : path_(std::filesystem::temp_directory_path() / ("backplane-sdk-plugin-test-" + RandomSuffix())) {
    std::filesystem::create_directories(path_);
  }
  ~ScratchFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  ScratchFolder(const ScratchFolder&) = delete;
  ScratchFolder& operator=(const ScratchFolder&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// The whole of `file`, as bytes.
inline std::string ReadAll(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace backplane::sdk_plugin
