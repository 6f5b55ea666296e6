// A fresh, uniquely named folder under the system's temporary folder, removed with its contents
// when the object is destroyed.
#pragma once

#include <filesystem>
#include <string>

namespace backplane::e2e {

class TempFolder {
 public:
  // Throws std::filesystem::filesystem_error when the folder cannot be created.
  explicit TempFolder(const std::string& prefix);
  ~TempFolder();  // best effort: a removal failure is ignored
  TempFolder(const TempFolder&) = delete;
  TempFolder& operator=(const TempFolder&) = delete;

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

}  // namespace backplane::e2e
