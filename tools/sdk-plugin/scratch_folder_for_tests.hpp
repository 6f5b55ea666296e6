// The unit tests' scratch space: a fresh folder (the tests' one TempFolder, tests/support),
// removed with its contents when the object goes, and the bytes of a file written there.
// Test-only; not thread-safe.
#pragma once

#include "temp_folder.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace backplane::sdk_plugin {

// A fresh folder "backplane-sdk-plugin-test-<random>" under the system's temporary folder.
class ScratchFolder : public test_support::TempFolder {
 public:
  ScratchFolder() : TempFolder("sdk-plugin-test") {}
};

// The whole of `file`, as bytes.
inline std::string ReadAll(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace backplane::sdk_plugin
