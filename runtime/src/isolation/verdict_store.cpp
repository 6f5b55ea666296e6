#include "isolation/verdict_store.hpp"

#include "log.hpp"

#include <backplane/folder_entries.hpp>
#include <backplane/path_text.hpp>
#include <backplane/version.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <random>
#include <system_error>
#include <utility>
#include <vector>

namespace backplane::isolation {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kFormat = "backplane-plugin-verdict/1";
constexpr std::uintmax_t kMaxEntryBytes = 64 * 1024;  // an entry is a few hundred bytes

// FNV-1a, 64 bits: a stable file name for a path (not a security measure: a collision only
// makes two libraries share an entry, and Find compares the whole key).
std::string PathHash(const std::string& text) {
  std::uint64_t hash = 14695981039346656037ull;
  for (const unsigned char c : text) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

bool IsEntryName(const fs::path& file) {
  const std::string name = PathToUtf8(file.filename());
  return name.size() == 21 && file.extension() == ".json" &&
         std::all_of(name.begin(), name.begin() + 16, [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

std::optional<ProbeOutcome> OutcomeFromString(const std::string& text) {
  for (const ProbeOutcome outcome :
       {ProbeOutcome::kPassed, ProbeOutcome::kCrashed, ProbeOutcome::kHung, ProbeOutcome::kExited}) {
    if (text == ToString(outcome)) return outcome;
  }
  return std::nullopt;
}

// Reads and parses one entry; nullopt with `why` for anything that is not one of ours.
std::optional<StoredVerdict> ReadEntry(const fs::path& file, std::string& why) {
  std::error_code error;
  const auto size = fs::file_size(file, error);
  if (error || !fs::is_regular_file(fs::status(file, error))) {
    why = "it is not a readable regular file";
    return std::nullopt;
  }
  if (size > kMaxEntryBytes) {
    why = "it is " + std::to_string(size) + " bytes, more than an entry can be";
    return std::nullopt;
  }
  std::ifstream in(file, std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (!in.good() && !in.eof()) {
    why = "it cannot be read";
    return std::nullopt;
  }
  const json document = json::parse(text, nullptr, false);
  if (document.is_discarded() || !document.is_object()) {
    why = "it is not a JSON object";
    return std::nullopt;
  }
  try {
    if (document.at("format").get<std::string>() != kFormat) {
      why = "its format is not " + std::string(kFormat);
      return std::nullopt;
    }
    StoredVerdict verdict;
    verdict.key.path = document.at("library").get<std::string>();
    verdict.key.size = document.at("size").get<std::uintmax_t>();
    verdict.key.modified = document.at("modified").get<std::int64_t>();
    verdict.key.sha256 = document.at("sha256").get<std::string>();
    const auto outcome = OutcomeFromString(document.at("outcome").get<std::string>());
    if (!outcome) {
      why = "its outcome is not one of passed, crashed, hung, exited";
      return std::nullopt;
    }
    verdict.outcome = *outcome;
    verdict.reason = document.at("reason").get<std::string>();
    verdict.timeout_seconds = document.at("timeout_seconds").get<double>();
    verdict.probed_at = document.at("probed_at").get<std::string>();
    verdict.runtime = document.at("runtime").get<std::string>();
    return verdict;
  } catch (const json::exception&) {
    why = "a field is missing or has the wrong type";
    return std::nullopt;
  }
}

std::string EntryText(const StoredVerdict& verdict) {
  const json document = {
      {"format", kFormat},
      {"library", verdict.key.path},
      {"size", verdict.key.size},
      {"modified", verdict.key.modified},
      {"sha256", verdict.key.sha256},
      {"outcome", ToString(verdict.outcome)},
      {"reason", verdict.reason},
      {"timeout_seconds", verdict.timeout_seconds},
      {"probed_at", verdict.probed_at},
      {"runtime", verdict.runtime},
  };
  // Replace, not throw, on invalid UTF-8 in a path.
  return document.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

// A name no other writer picks: the entry's name plus random digits.
fs::path TemporaryName(const fs::path& entry) {
  static thread_local std::mt19937_64 generator{std::random_device{}()};
  char digits[17];
  std::snprintf(digits, sizeof digits, "%016llx", static_cast<unsigned long long>(generator()));
  fs::path name = entry;  // as a path: the entry's name never goes through text
  name += PathFromUtf8(std::string(".tmp-") + digits);
  return name;
}

}  // namespace

const char* ToString(ProbeOutcome outcome) {
  switch (outcome) {
    case ProbeOutcome::kPassed: return "passed";
    case ProbeOutcome::kCrashed: return "crashed";
    case ProbeOutcome::kHung: return "hung";
    case ProbeOutcome::kExited: return "exited";
  }
  return "unknown";
}

std::string RuntimeIdentity() {
  return "backplane " + std::to_string(kSdkVersion.major) + "." + std::to_string(kSdkVersion.minor) + "." +
         std::to_string(kSdkVersion.patch) + ", Backend API " + std::to_string(kBackendApiVersion.major) +
         "." + std::to_string(kBackendApiVersion.minor);
}

std::string UtcNow() {
  using namespace std::chrono;
  const auto now = time_point_cast<seconds>(system_clock::now());
  const std::int64_t total = now.time_since_epoch().count();
  std::int64_t days = total / 86400;
  std::int64_t rest = total % 86400;
  if (rest < 0) {
    rest += 86400;
    --days;
  }
  // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
  days += 719468;
  const std::int64_t era = (days >= 0 ? days : days - 146096) / 146097;
  const std::int64_t doe = days - era * 146097;
  const std::int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const std::int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const std::int64_t mp = (5 * doy + 2) / 153;
  const std::int64_t day = doy - (153 * mp + 2) / 5 + 1;
  const std::int64_t month = mp < 10 ? mp + 3 : mp - 9;
  const std::int64_t year = yoe + era * 400 + (month <= 2 ? 1 : 0);
  char text[32];
  std::snprintf(text, sizeof text, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ", static_cast<long long>(year),
                static_cast<long long>(month), static_cast<long long>(day), static_cast<long long>(rest / 3600),
                static_cast<long long>(rest % 3600 / 60), static_cast<long long>(rest % 60));
  return text;
}

VerdictStore::VerdictStore(fs::path folder, ILogSink& log) : folder_(std::move(folder)), log_(log) {}

fs::path VerdictStore::EntryFor(const std::string& canonical_library) const {
  return folder_ / PathFromUtf8(PathHash(canonical_library) + ".json");
}

std::optional<StoredVerdict> VerdictStore::Find(const LibraryKey& key) const {
  const fs::path entry = EntryFor(key.path);
  std::error_code error;
  if (!fs::exists(fs::symlink_status(entry, error))) return std::nullopt;
  std::string why;
  std::optional<StoredVerdict> verdict = ReadEntry(entry, why);
  if (!verdict) {
    Log(log_, LogLevel::kWarning, LogCategory::kPlugin,
        "plugin verdict store: ignoring " + PathToUtf8(entry) + ": " + why + " (the library is probed again)");
    return std::nullopt;
  }
  if (verdict->key != key || verdict->runtime != RuntimeIdentity()) {
    Log(log_, LogLevel::kDebug, LogCategory::kPlugin,
        "plugin verdict store: " + PathToUtf8(entry) + " is for " +
            (verdict->key.path != key.path ? "another library (" + verdict->key.path + ")"
             : verdict->runtime != RuntimeIdentity() ? "another runtime (" + verdict->runtime + ")"
                                                     : "an earlier version of " + key.path) +
            "; probing again");
    return std::nullopt;
  }
  return verdict;
}

bool VerdictStore::Save(const StoredVerdict& verdict) {
  const fs::path entry = EntryFor(verdict.key.path);
  const fs::path temporary = TemporaryName(entry);
  std::error_code error;
  fs::create_directories(folder_, error);
  if (!error) {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << EntryText(verdict);
    out.close();
    if (!out) error = std::make_error_code(std::errc::io_error);
  }
  if (!error) fs::rename(temporary, entry, error);
  if (error) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    Log(log_, LogLevel::kWarning, LogCategory::kPlugin,
        "plugin verdict store: cannot write " + PathToUtf8(entry) + ": " + error.message() +
            " (the verdict for " + verdict.key.path + " is not remembered)");
    return false;
  }
  Prune();
  return true;
}

void VerdictStore::Prune() {
  struct Kept {
    std::string probed_at;
    fs::path file;
  };
  std::vector<Kept> kept;
  std::error_code error;
  for (const fs::path& file : FolderEntries(folder_, error)) {
    if (!IsEntryName(file)) continue;  // temporary files of other writers, foreign files
    std::string why;
    const std::optional<StoredVerdict> verdict = ReadEntry(file, why);
    std::error_code missing;
    if (verdict && fs::exists(PathFromUtf8(verdict->key.path), missing)) {
      kept.push_back({verdict->probed_at, file});
      continue;
    }
    if (verdict && missing) continue;  // cannot tell: keep it
    std::error_code ignored;
    fs::remove(file, ignored);
    Log(log_, LogLevel::kDebug, LogCategory::kPlugin,
        "plugin verdict store: removed " + PathToUtf8(file) + " (" +
            (verdict ? verdict->key.path + " no longer exists" : why) + ")");
  }
  if (kept.size() <= kMaxEntries) return;
  std::sort(kept.begin(), kept.end(), [](const Kept& a, const Kept& b) { return a.probed_at < b.probed_at; });
  for (std::size_t i = 0; i + kMaxEntries < kept.size(); ++i) {
    std::error_code ignored;
    fs::remove(kept[i].file, ignored);
  }
}

}  // namespace backplane::isolation
