#include "platform/permissions.hpp"

#include <system_error>

namespace backplane::platform {

bool IsWritableByOthers(const std::filesystem::path& path) noexcept {
#if defined(_WIN32)
  (void)path;
  return false;
#else
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::file_status status = fs::status(path, error);
  if (error || !fs::exists(status)) return false;
  return (status.permissions() & fs::perms::others_write) != fs::perms::none;
#endif
}

}  // namespace backplane::platform
