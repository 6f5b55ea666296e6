// The verdict store: what probing each plugin library in a child process showed, remembered
// across processes so that every app with plugin isolation on skips a library that crashed or
// hung once, and does not probe again one that passed, until the file changes.
//
// One small JSON file per library in one folder, named after a hash of the library's canonical
// path. Written as a temporary file and renamed over the entry, so several processes may use the
// store at once: a reader sees an old or a new entry, never half of one (two processes probing
// the same library at once both probe, and the last write wins). An entry that cannot be read
// or parsed, or is not ours, is ignored with a warning (and overwritten by the next probe).
// The store stays bounded: saving prunes entries whose library no longer exists and, above
// kMaxEntries, the oldest.
#pragma once

#include "isolation/library_key.hpp"

#include <backplane/logging.hpp>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>

namespace backplane::isolation {

// How a probe ended.
enum class ProbeOutcome {
  kPassed,   // the child loaded the library and reported its record (any verdict)
  kCrashed,  // killed by a signal / an unhandled exception
  kHung,     // still running at the timeout; killed
  kExited,   // ended before reporting, or with a non-zero status
};
const char* ToString(ProbeOutcome outcome);  // "passed", "crashed", "hung", "exited"

// One remembered probe. Value type.
struct StoredVerdict {
  LibraryKey key;
  ProbeOutcome outcome = ProbeOutcome::kPassed;
  std::string reason;            // "crashed while loading (SIGSEGV) in the probe process"
  double timeout_seconds = 0;    // the probe's time limit
  std::string probed_at;         // UTC, "2025-06-01T12:00:00Z"
  std::string runtime;           // RuntimeIdentity() of the runtime that probed
};

// The runtime that writes verdicts: SDK version and Backend API version. A verdict of another
// runtime is not used (that runtime may load plugins differently).
std::string RuntimeIdentity();

// The current time as "YYYY-MM-DDTHH:MM:SSZ" (UTC). Thread-safe.
std::string UtcNow();

class VerdictStore {
 public:
  static constexpr std::size_t kMaxEntries = 256;

  // Uses `folder` (created on the first Save). `log` must outlive the store. Not thread-safe:
  // one store per Runtime::Create; other processes and stores may use the same folder.
  VerdictStore(std::filesystem::path folder, ILogSink& log);

  const std::filesystem::path& Folder() const { return folder_; }
  // The entry file for a library's canonical path (it may not exist).
  std::filesystem::path EntryFor(const std::string& canonical_library) const;

  // The verdict stored for exactly this file (path, size, time, sha256) by this runtime, or
  // nullopt. Logs a warning for an entry that cannot be read or is not a verdict, and a debug
  // line for one that is out of date. Never throws but for std::bad_alloc.
  std::optional<StoredVerdict> Find(const LibraryKey& key) const;

  // Writes `verdict` atomically over the library's entry, then prunes. Returns false, after a
  // warning naming the file and the error, when it cannot be written. Never throws but for
  // std::bad_alloc.
  bool Save(const StoredVerdict& verdict);

 private:
  void Prune();

  std::filesystem::path folder_;
  ILogSink& log_;
};

}  // namespace backplane::isolation
