#include "temp_folder.hpp"

#include <random>
#include <system_error>

namespace backplane::test_support {

TempFolder::TempFolder(const std::string& prefix) {
  std::random_device entropy;
  std::mt19937_64 generator(entropy());
  const std::filesystem::path base = std::filesystem::temp_directory_path();
  for (int attempt = 0; attempt < 100; ++attempt) {
    const std::filesystem::path candidate =
        base / ("backplane-" + prefix + "-" + std::to_string(generator()));
    if (std::filesystem::create_directory(candidate)) {
      path_ = std::filesystem::canonical(candidate);
      return;
    }
  }
  throw std::filesystem::filesystem_error(
      "cannot create a unique temporary folder", base,
      std::make_error_code(std::errc::file_exists));
}

TempFolder::~TempFolder() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

}  // namespace backplane::test_support
