// ProgramBinaryCache: OpenCL program binaries on disk, so that a second process (or a second
// device object) loading the same kernels compiles nothing.
//
// One file per program, named <key>.bin, where the key is the sha256 of everything that makes
// a binary valid: a format tag, platform name and version, device name, device version and
// driver version, kernel source and build options (BinaryKey). A file holds a header line with a format tag, the payload size
// and the payload's sha256, then the binary; a file that does not match its header (truncated,
// overwritten, foreign) is ignored, and the caller rebuilds and overwrites it. Files are written
// to a uniquely named temporary file in the same folder and renamed over the target, so a
// reader never sees a partial file, and concurrent writers of the same key (same content)
// are harmless.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace backplane::opencl {

// sha256 (lower-case hex) of the fields, each length-prefixed so that no two field lists give
// the same input. Thread-safe.
std::string BinaryKey(const std::vector<std::string>& fields);

// Immutable after construction; Load and Store are thread-safe (they touch only files).
class ProgramBinaryCache {
 public:
  // Uses `preferred` when it can be created and written to. Else a new folder of its own under
  // the temporary folder (<temp>/backplane-opencl-<random>), removed with this object: a shared
  // temporary folder could hold binaries planted by another user, so the fallback keeps
  // binaries for this object's lifetime only. Else nothing (Enabled() false: every Load misses,
  // every Store does nothing). Never throws except on out-of-memory.
  explicit ProgramBinaryCache(const std::filesystem::path& preferred);
  ~ProgramBinaryCache();
  ProgramBinaryCache(const ProgramBinaryCache&) = delete;
  ProgramBinaryCache& operator=(const ProgramBinaryCache&) = delete;

  bool Enabled() const { return !directory_.empty(); }
  // The folder in use (empty when disabled).
  const std::filesystem::path& Directory() const { return directory_; }
  // Why the preferred folder is not used ("'/x' is not writable: ...; using '/tmp/...'");
  // empty when it is.
  const std::string& FallbackNote() const { return note_; }

  // The binary stored under `key`, or nullopt when there is none or the file is corrupt.
  std::optional<std::vector<unsigned char>> Load(const std::string& key) const;
  // Stores `binary` under `key`; returns false (nothing half-written left behind) when the
  // folder cannot be written. Never throws except on out-of-memory.
  bool Store(const std::string& key, const std::vector<unsigned char>& binary) const;

  // The file `key` is stored in (for tests and messages).
  std::filesystem::path PathOf(const std::string& key) const;

 private:
  std::filesystem::path directory_;
  std::string note_;
  std::filesystem::path owned_;  // the fallback folder this object created, removed by the destructor
};

}  // namespace backplane::opencl
