#include "isolation/library_key.hpp"

#include "discovery/sha256.hpp"

#include <backplane/exception.hpp>
#include <backplane/path_text.hpp>

#include <system_error>

namespace backplane::isolation {

namespace fs = std::filesystem;

std::optional<LibraryKey> ReadLibraryKey(const fs::path& library, std::string& why) {
  std::error_code error;
  LibraryKey key;
  const fs::path canonical = fs::canonical(library, error);
  if (error) {
    why = PathToUtf8(library) + " cannot be resolved: " + error.message();
    return std::nullopt;
  }
  key.path = PathToUtf8(canonical);
  const fs::file_status status = fs::status(canonical, error);
  if (error || !fs::is_regular_file(status)) {
    why = PathToUtf8(library) + " is not a regular file";
    return std::nullopt;
  }
  key.size = fs::file_size(canonical, error);
  if (!error) {
    key.modified = static_cast<std::int64_t>(fs::last_write_time(canonical, error).time_since_epoch().count());
  }
  if (error) {
    why = "cannot read the size and time of " + key.path + ": " + error.message();
    return std::nullopt;
  }
  try {
    key.sha256 = discovery::Sha256OfFile(canonical);
  } catch (const Exception& failure) {
    why = failure.what();
    return std::nullopt;
  }
  return key;
}

}  // namespace backplane::isolation
