// The tests' temporary folder, the one every suite uses (test support library
// backplane_test_support, linked by every doctest program through backplane_test_main): a fresh
// folder under the system's temporary folder, unique across tests and across processes running
// at once (ctest -j), removed with its contents when the object goes.
#pragma once

#include <filesystem>
#include <string>

namespace backplane::test_support {

class TempFolder {
 public:
  // Creates "backplane-<prefix>-<random>" (its canonical path: the system's temporary folder may
  // be reached through a symlink, and the runtime reports canonical paths). Throws
  // std::filesystem::filesystem_error when no such folder can be created.
  explicit TempFolder(const std::string& prefix);
  ~TempFolder();  // best effort: a removal failure is ignored
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace backplane::test_support
