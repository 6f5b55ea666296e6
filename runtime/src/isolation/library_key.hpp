// What identifies one version of a plugin library file for the verdict store: its canonical
// path, size, modification time and sha256.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace backplane::isolation {

// Value type.
struct LibraryKey {
  std::string path;            // canonical
  std::uintmax_t size = 0;     // bytes
  std::int64_t modified = 0;   // last write time, in ticks of std::filesystem's file clock
  std::string sha256;          // lower-case hex of the file's bytes

  friend bool operator==(const LibraryKey& a, const LibraryKey& b) {
    return a.path == b.path && a.size == b.size && a.modified == b.modified && a.sha256 == b.sha256;
  }
  friend bool operator!=(const LibraryKey& a, const LibraryKey& b) { return !(a == b); }
};

// The key of `library` as it is now. Reads the whole file (hashing). Returns nullopt with
// `why` set when it is not a regular file (a FIFO or device is never read) or cannot be
// resolved or read. Thread-safe; never throws but for std::bad_alloc.
std::optional<LibraryKey> ReadLibraryKey(const std::filesystem::path& library, std::string& why);

}  // namespace backplane::isolation
