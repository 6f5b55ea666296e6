#include "discovery/discovery.hpp"

#include "discovery/naming_scheme.hpp"
#include "discovery/search_paths.hpp"
#include "discovery/semver.hpp"
#include "discovery/trust_check.hpp"
#include "loading/api_version.hpp"
#include "loading/backend_options.hpp"
#include "loading/library_header.hpp"
#include "loading/plugin_library.hpp"
#include "log.hpp"
#include "platform/message_text.hpp"
#include "platform/regular_file.hpp"

#include <backplane/backend_id.hpp>
#include <backplane/folder_entries.hpp>
#include <backplane/path_text.hpp>
#include <backplane/plugin.hpp>

#include <algorithm>
#include <filesystem>
#include <exception>
#include <map>
#include <new>
#include <optional>
#include <unordered_set>
#include <system_error>

namespace backplane::discovery {

namespace fs = std::filesystem;

namespace {

// The largest library pinned in memory under the trust policy require (PinnedImage).
constexpr std::uint64_t kMaxPinnedLibraryBytes = std::uint64_t{1} << 30;

// One file of a search folder. The scanner passes `path` on as it was listed; `name` is there
// for the naming rules (naming_scheme.hpp), which read file names as text.
struct FolderEntry {
  fs::path path;     // the folder / the file's name
  std::string name;  // the file's name, UTF-8
};

// The files in `folder`, sorted by name (byte order), so scans are deterministic.
std::vector<FolderEntry> ListFolder(const fs::path& folder, ILogSink& log) {
  std::vector<FolderEntry> entries;
  std::error_code error;
  for (fs::path& path : FolderEntries(folder, error)) {
    std::string name = PathToUtf8(path.filename());
    entries.push_back({std::move(path), std::move(name)});
  }
  if (error) {
    Log(log, LogLevel::kWarning, LogCategory::kDiscovery,
        "cannot list all of " + PathToUtf8(folder) + ": " + error.message());
  }
  std::sort(entries.begin(), entries.end(),
            [](const FolderEntry& a, const FolderEntry& b) { return a.name < b.name; });
  return entries;
}

std::string LibraryOrigin(const loading::RegisteredBackend& backend) {
  return backend.info.library_path.empty() ? "the runtime itself (static backend)"
                                           : backend.info.library_path;
}

// A manifest that passed its checks, waiting for its id's turn (docs/backend-discovery.md §6).
struct ManifestCandidate {
  DiscoveryRecord record;
  Manifest manifest;
  Semver version;
};

// One scan over a list of folders. Remembers which library files manifests claim and which
// files (by identity) were already taken, so each file yields at most one record.
class Scanner {
 public:
  explicit Scanner(DiscoveryContext& context) : context_(context) {}

  // Reads and checks one manifest. A rejected one gets its record now; an accepted one is
  // returned to compete with the other candidates of its id (LoadBestOfEachId).
  std::optional<ManifestCandidate> ReadManifest(const FolderEntry& manifest, const std::string& layer) {
    DiscoveryRecord record;
    record.found_by = FoundBy::kManifest;
    record.manifest_path = PathToUtf8(manifest.path);
    record.layer = layer;
    claimed_stems_.insert(FolderKey(manifest.path.parent_path(), BackendStem(manifest.name)));
    std::optional<ManifestCandidate> candidate;
    Guarded(std::move(record), [&](DiscoveryRecord& working) { candidate = CheckManifest(manifest.path, working); });
    return candidate;
  }

  // The rule for candidates of one backend id (docs/backend-discovery.md §6): none is opened
  // when the id is filtered out or a static backend has it; otherwise the highest version
  // (ties: the one found first, i.e. in an earlier layer) inside the pinned range is opened
  // and registered. Only when it fails is the next one opened; the rest are superseded by
  // the one that registered, and never opened.
  void LoadBestOfEachId(std::vector<ManifestCandidate> candidates) {
    std::vector<std::string> ids;  // in order of first appearance: records stay in scan order per id
    std::map<std::string, std::vector<ManifestCandidate*>> by_id;
    for (auto& candidate : candidates) {
      auto& group = by_id[candidate.manifest.id];
      if (group.empty()) ids.push_back(candidate.manifest.id);
      group.push_back(&candidate);
    }
    for (const auto& id : ids) {
      auto& group = by_id[id];
      std::stable_sort(group.begin(), group.end(), [](const ManifestCandidate* a, const ManifestCandidate* b) {
        return CompareSemver(a->version, b->version) > 0;
      });
      const std::string refusal = context_.filter.IdRefusal(id);
      for (ManifestCandidate* candidate : group) {
        DiscoveryRecord& record = candidate->record;
        record.stage = DiscoveryStage::kManifestChecked;
        const std::string outside =
            refusal.empty() ? context_.filter.VersionRefusal(id, candidate->manifest.version) : refusal;
        const auto* winner = context_.registry.Find(BackendId(id));
        if (!refusal.empty() || (!winner && !outside.empty())) {
          std::string message = record.manifest_path + ": " + outside + "; its library was not opened";
          Conclude(std::move(record), Verdict::kFiltered, ReasonCode::kFilteredOut, std::move(message));
        } else if (winner) {
          Supersede(std::move(record), *winner);
        } else {
          const Manifest& manifest = candidate->manifest;
          Guarded(std::move(record), [&](DiscoveryRecord& working) {
            LoadCandidate(std::move(working), manifest.library_path, &manifest);
          });
        }
      }
    }
  }

  // A library with no manifest, found by the naming scheme (after every manifest candidate, so
  // a manifest's copy of an id wins). Its id and version are known only once it is open: the
  // filters and the duplicate check run then, and close it again when it is left out.
  void ScanLibrary(const FolderEntry& library, const std::string& layer) {
    if (claimed_files_.count(platform::NameKey(library.path)) ||
        claimed_stems_.count(FolderKey(library.path.parent_path(), BackendStem(library.name)))) {
      return;  // its manifest's record covers it
    }
    DiscoveryRecord record;
    record.found_by = FoundBy::kNamingScheme;
    record.library_path = PathToUtf8(library.path);
    record.layer = layer;
    Guarded(std::move(record), [&](DiscoveryRecord& working) {
      LoadCandidate(std::move(working), library.path, nullptr);
    });
  }

 private:
  // The backstop of "one bad candidate never stops the scan": runs `scan` on a copy of `start`
  // and turns anything it throws into that candidate's record (unless its record was already
  // made), with the stage it had reached. Only std::bad_alloc, a broken invariant, and an
  // OptionError (the application's backend options are wrong) go on.
  // The specific checks catch what they expect; this catches what nobody expected.
  template <typename Scan>
  void Guarded(DiscoveryRecord start, Scan&& scan) {
    const std::size_t records_before = context_.records.size();
    DiscoveryRecord working = start;
    std::string what;
    try {
      scan(working);
      return;
    } catch (const std::bad_alloc&) {
      throw;
    } catch (const loading::OptionError&) {
      throw;  // the application's options are wrong, not this candidate: Create fails
    } catch (const std::exception& error) {
      what = error.what();
    } catch (...) {
      what = "something that is not a std::exception";
    }
    if (context_.records.size() != records_before) return;  // its record is in; a log sink threw
    start.stage = working.stage;  // an enum: still valid after `working` was moved from
    const std::string file = !start.manifest_path.empty() ? start.manifest_path : start.library_path;
    const ReasonCode code = BackstopCode(start.stage);
    std::string message = file + ": discovery failed at stage " + ToString(start.stage) +
                          ": unexpected error: " + platform::Bounded(what, 200);
    Reject(std::move(start), code, std::move(message));
  }

  // The code of an unexpected failure, by the stage where it happened.
  static ReasonCode BackstopCode(DiscoveryStage stage) {
    switch (stage) {
      case DiscoveryStage::kFound: return ReasonCode::kManifestUnreadable;
      case DiscoveryStage::kManifestRead: return ReasonCode::kManifestInvalidJson;
      case DiscoveryStage::kManifestChecked: return ReasonCode::kManifestFieldInvalid;
      case DiscoveryStage::kLibraryVerified: return ReasonCode::kLibraryInvalid;
      case DiscoveryStage::kRegistered: return ReasonCode::kFactoryFailed;
      default: return ReasonCode::kOpenFailed;
    }
  }

  // The manifest stages (docs/backend-discovery.md §3) and then trust (§8), over the same bytes.
  std::optional<ManifestCandidate> CheckManifest(const fs::path& file, DiscoveryRecord& record) {
    std::string text;
    ManifestCheck check = CheckManifestFile(file, context_.target, &text);
    record.warnings = std::move(check.warnings);
    if (check.claimed_library) {
      const fs::path library = file.parent_path() / PathFromUtf8(*check.claimed_library);
      claimed_files_.insert(platform::NameKey(library));
      record.library_path = PathToUtf8(library);
    }
    if (!check.manifest) {
      record.stage = check.stage;
      Reject(std::move(record), check.problems.front().code, JoinProblems(check.problems));
      return std::nullopt;
    }
    record.backend_id = check.manifest->id;
    record.version = check.manifest->version;
    record.stage = DiscoveryStage::kManifestChecked;
    if (!AcceptedByTrust(record, CheckManifestCandidate(file, text, check, context_.trust))) return std::nullopt;
    // The manifest check accepts only semver versions.
    const Semver version = ParseSemver(check.manifest->version).value_or(Semver{});
    return ManifestCandidate{std::move(record), std::move(*check.manifest), version};
  }

  // Puts what the trust rule found on `record`. When the policy refuses the candidate, its record
  // is concluded (rejected, at the stage it has) and false is returned: `record` is then moved from.
  bool AcceptedByTrust(DiscoveryRecord& record, TrustCheck trust) {
    record.signature = std::move(trust.signature);
    record.warnings.insert(record.warnings.end(), trust.warnings.begin(), trust.warnings.end());
    if (!trust.rejection) return true;
    Reject(std::move(record), trust.rejection->code, std::move(trust.rejection->message));
    return false;
  }

  // `record`, a manifest candidate, lost to `winner`, the backend registered under its id: not
  // opened.
  void Supersede(DiscoveryRecord record, const loading::RegisteredBackend& winner) {
    // (Messages are made before `record` is moved into the call.)
    const std::string file = !record.manifest_path.empty() ? record.manifest_path : record.library_path;
    if (winner.info.found_by == FoundBy::kStatic) {
      std::string message = file + ": backend id " + record.backend_id + " is already registered from " +
                            LibraryOrigin(winner) + "; skipped, not opened";
      return Skip(std::move(record), ReasonCode::kDuplicateBackendId, std::move(message));
    }
    const std::string why = record.version == winner.info.version
                                ? "the same version, found first (" + winner.info.layer + " layer)"
                                : "the highest compatible version";
    std::string message = file + ": " + record.backend_id + " " + record.version + " is superseded by " +
                          winner.info.id.Get() + " " + winner.info.version + " from " + LibraryOrigin(winner) +
                          " (" + why + "); not opened";
    Conclude(std::move(record), Verdict::kSuperseded, ReasonCode::kSuperseded, std::move(message));
  }

  // Names the file system takes for one (on Windows: any case) have one key. For a name made
  // from text (a stem); a listed file's key is platform::NameKey of its path.
  static std::string FolderKey(const fs::path& folder, std::string_view name) {
    return platform::NameKey(folder / PathFromUtf8(name));
  }

  // The library stages (docs/backend-discovery.md §3, from library_verified on). The file is
  // opened once, as a regular file (a FIFO or device is never read: it could block or never
  // end). Under the trust policy require its bytes are pinned first (PinnedImage: a sealed copy
  // on Linux), and the pinned bytes are what is hashed, checked and handed to the loader, so no
  // byte that was not verified is ever mapped (§8). Otherwise that handle is hashed, its header is
  // checked (a truncated file would crash the OS loader with SIGBUS), and it stays open until
  // the loader has mapped the file, whose identity is then compared with the handle's.
  void LoadCandidate(DiscoveryRecord record, const fs::path& path, const Manifest* manifest) {
    const std::string where = PathToUtf8(path);  // how messages and the registry name the library
    record.stage = DiscoveryStage::kLibraryVerified;
    std::optional<platform::RegularFile> file;
    if (auto problem = OpenLibraryFile(path, file)) {
      return Reject(std::move(record), problem->code, std::move(problem->message));
    }
    // Nothing signed: what the trust policy says of that (§8), before reading it.
    if (!manifest && !AcceptedByTrust(record, CheckUnsignedLibrary(path, context_.trust))) return;
    std::optional<platform::PinnedImage> pinned;
    if (context_.trust.policy == TrustPolicy::kRequire) {
      std::string why;
      pinned = file->Pin(path, kMaxPinnedLibraryBytes, why);
      if (!pinned) {
        return Reject(std::move(record), ReasonCode::kOpenFailed,
                      where + " " + why + "; policy require loads a library only from its verified bytes");
      }
    }
    const platform::RegularFile& verified = pinned ? pinned->file : *file;
    if (manifest && manifest->sha256) {
      if (auto problem = CheckLibraryChecksum(verified, path, *manifest->sha256, manifest->file)) {
        return Reject(std::move(record), problem->code, std::move(problem->message));
      }
    }
    std::error_code error;
    const fs::path canonical = fs::canonical(path, error);
    if (error) {
      return Reject(std::move(record), ReasonCode::kLibraryMissing,
                    where + " cannot be resolved: " + error.message());
    }
    if (const auto first = opened_.find(file->Identity()); first != opened_.end()) {
      return Skip(std::move(record), ReasonCode::kDuplicateLibrary,
                  where + " is the same file as " + first->second +
                      ", which was already considered; skipped");
    }
    opened_.emplace(file->Identity(), where);
    if (std::string problem = loading::LibraryHeaderProblem(verified); !problem.empty()) {
      return Reject(std::move(record), ReasonCode::kLibraryInvalid, where + " " + problem);
    }

    record.stage = DiscoveryStage::kLibraryOpened;
    if (std::string refusal = LibraryFilterRefusal(record, where); !refusal.empty()) {
      return Reject(std::move(record), ReasonCode::kLibraryRefused, std::move(refusal));
    }

    const loading::LibraryToOpen to_open{canonical, pinned ? pinned->loader_path : fs::path(), verified.Identity()};
    loading::PluginCheck check = loading::OpenAndCheckPlugin(to_open, context_.target, context_.api);
    if (!check.plugin) {
      record.stage = check.rejection.stage;
      return Reject(std::move(record), check.rejection.code, check.rejection.message);
    }
    loading::CheckedPlugin& plugin = *check.plugin;
    if (manifest) {
      // The library is closed again when `check` goes, as for the loading checks above.
      const std::string mismatches =
          ManifestMismatches(*manifest, plugin.id.Get(), plugin.api_version, *plugin.identity);
      if (!mismatches.empty()) {
        record.stage = DiscoveryStage::kBackendChecked;
        return Reject(std::move(record), ReasonCode::kManifestMismatch,
                      record.manifest_path + " does not describe " + PathToUtf8(canonical) + ": " +
                          mismatches);
      }
    }
    record.backend_id = plugin.id.Get();
    record.version = plugin.identity->plugin_version ? plugin.identity->plugin_version : "";
    record.stage = DiscoveryStage::kBackendChecked;
    if (!manifest) {  // the naming scheme: the id and version are known only now
      std::string refusal = context_.filter.IdRefusal(record.backend_id);
      if (refusal.empty()) refusal = context_.filter.VersionRefusal(record.backend_id, record.version);
      if (!refusal.empty()) {
        return Conclude(std::move(record), Verdict::kFiltered, ReasonCode::kFilteredOut,
                        where + ": " + refusal + "; closed again");
      }
    }
    if (const auto* existing = context_.registry.Find(plugin.id)) {
      return Skip(std::move(record), ReasonCode::kDuplicateBackendId,
                  "backend id " + plugin.id.Get() + " of " + where +
                      " is already registered from " + LibraryOrigin(*existing) + "; skipped");
    }

    loading::RegisteredBackend backend = Registered(record, where, plugin);
    Register(std::move(record), std::move(backend));
  }

  // The application's RuntimeOptions::library_filter on `record` (empty: none, or it accepts);
  // what it throws becomes its refusal, bounded (std::bad_alloc goes on).
  std::string LibraryFilterRefusal(const DiscoveryRecord& record, const std::string& where) const {
    if (!context_.library_filter) return {};
    try {
      return context_.library_filter(record);
    } catch (const std::bad_alloc&) {
      throw;
    } catch (const std::exception& error) {
      return "RuntimeOptions::library_filter threw for " + where + ": " +
             platform::Bounded(error.what(), 200);
    } catch (...) {
      return "RuntimeOptions::library_filter threw something that is not a std::exception for " + where;
    }
  }

  // The registry's entry for a checked plugin found at `where`, taking its library (`plugin`
  // keeps the rest).
  static loading::RegisteredBackend Registered(const DiscoveryRecord& record, const std::string& where,
                                               loading::CheckedPlugin& plugin) {
    loading::RegisteredBackend backend;
    backend.info.id = plugin.id;
    backend.info.vendor = plugin.identity->vendor ? plugin.identity->vendor : "";
    backend.info.version = plugin.identity->plugin_version ? plugin.identity->plugin_version : "";
    backend.info.api_version = plugin.api_version;
    backend.info.found_by = record.found_by;
    backend.info.layer = record.layer;
    backend.info.library_path = where;
    backend.info.manifest_path = record.manifest_path;
    backend.info.signature = record.signature;
    backend.factory = loading::MakePluginFactory(plugin.library, plugin.identity, plugin.factory);
    backend.library = std::move(plugin.library);
    return backend;
  }

 public:
  // Shared by static and dynamic backends: the final stage.
  void Register(DiscoveryRecord record, loading::RegisteredBackend backend) {
    record.stage = DiscoveryStage::kRegistered;
    auto entry = [&](const BackendId& id) -> const backend::BackendOptions* {
      const auto found = context_.backend_options.find(id);
      return found == context_.backend_options.end() ? nullptr : &found->second;
    };
    const backend::BackendOptions* all = entry(BackendId(kAllBackends));
    const backend::BackendOptions* own = entry(backend.info.id);
    const std::string failure =
        loading::RegisterBackend(context_.registry, std::move(backend), all, own, context_.backend_log);
    if (!failure.empty()) return Reject(std::move(record), ReasonCode::kFactoryFailed, failure);
    const auto& info = context_.registry.All().back().info;
    Conclude(std::move(record), Verdict::kRegistered, ReasonCode::kOk,
             "registered backend " + info.id.Get() + " " + info.version + " (Backend API " +
                 ToString(info.api_version) + ")");
  }

  void Reject(DiscoveryRecord record, ReasonCode code, std::string message) {
    Conclude(std::move(record), Verdict::kRejected, code, std::move(message));
  }

  // The same library or backend id as an earlier candidate: informational, not an error.
  void Skip(DiscoveryRecord record, ReasonCode code, std::string message) {
    Conclude(std::move(record), Verdict::kDuplicate, code, std::move(message));
  }

  // Left out by the application's or the user's filters (`why` from BackendFilter).
  void Filter(DiscoveryRecord record, std::string why) {
    Conclude(std::move(record), Verdict::kFiltered, ReasonCode::kFilteredOut, std::move(why));
  }

 private:
  static std::string JoinProblems(const std::vector<ManifestProblem>& problems) {
    std::string text = problems.front().message;
    for (std::size_t i = 1; i < problems.size(); ++i) text += "; " + problems[i].message;
    return text;
  }

  void Conclude(DiscoveryRecord record, Verdict verdict, ReasonCode code, std::string message) {
    record.verdict = verdict;
    record.code = code;
    record.message = std::move(message);
    Finish(std::move(record));
  }

  // Adds the record, then logs it (so a log sink that throws cannot cost the record).
  void Finish(DiscoveryRecord record) {
    context_.records.push_back(std::move(record));
    const DiscoveryRecord& added = context_.records.back();
    const bool registered = added.verdict == Verdict::kRegistered;
    const LogLevel level = added.verdict == Verdict::kRejected ? LogLevel::kWarning : LogLevel::kInfo;
    const LogCategory category = registered ? LogCategory::kPlugin : LogCategory::kDiscovery;
    if (context_.log.IsEnabled(level, category)) {
      const std::string where = !added.manifest_path.empty() ? added.manifest_path
                                : !added.library_path.empty() ? added.library_path
                                                              : "static backend " + added.backend_id;
      context_.log.Write(level, category,
                         where + ": " + ToString(added.verdict) + " (" + ToString(added.code) +
                             ") at stage " + ToString(added.stage) + ": " + added.message);
    }
    for (const auto& warning : added.warnings) {
      Log(context_.log, LogLevel::kWarning, LogCategory::kDiscovery, warning);
    }
  }

  DiscoveryContext& context_;
  // Keys are FolderKey(folder, file name or stem): strings compare faster than paths.
  std::unordered_set<std::string> claimed_files_;
  std::unordered_set<std::string> claimed_stems_;
  // The files considered for opening, by identity (whatever name, link or case reached them),
  // each with the name it was first found under.
  std::map<platform::FileIdentity, std::string> opened_;
};

}  // namespace

void RegisterStaticBackends(DiscoveryContext& context) {
  Scanner scanner(context);
  for (const auto& entry : GetStaticBackends()) {
    DiscoveryRecord record;
    record.found_by = FoundBy::kStatic;
    record.layer = kStaticLayer;
    const BackplanePluginIdentity* identity = entry.identity;
    const std::string id = identity && identity->backend_id ? identity->backend_id : "";
    record.backend_id = id;
    record.version = identity && identity->plugin_version ? identity->plugin_version : "";
    if (auto rejection = loading::CheckIdentity(identity, "static backend " + id, context.target, context.api)) {
      record.stage = rejection->stage;
      scanner.Reject(std::move(record), rejection->code, rejection->message);
      continue;
    }
    record.stage = DiscoveryStage::kBackendChecked;
    const BackendApiVersion version{identity->api_major, identity->api_minor};
    if (!IsWellFormedBackendId(id)) {
      scanner.Reject(std::move(record), ReasonCode::kBackendIdInvalid,
                     "static backend id \"" + id + "\" is not 1 to 64 letters or digits");
      continue;
    }
    if (std::string problem = loading::ApiVersionProblem(version, context.api); !problem.empty()) {
      scanner.Reject(std::move(record), ReasonCode::kApiVersionIncompatible,
                     "static backend " + id + " was " + problem);
      continue;
    }
    if (entry.factory == nullptr) {
      scanner.Reject(std::move(record), ReasonCode::kEntryPointMissing, "static backend " + id + " has no factory");
      continue;
    }
    if (context.registry.Find(BackendId(id))) {
      scanner.Skip(std::move(record), ReasonCode::kDuplicateBackendId,
                   "static backend " + id + " is linked into the runtime twice; skipped");
      continue;
    }
    std::string refusal = context.filter.IdRefusal(id);
    if (refusal.empty()) refusal = context.filter.VersionRefusal(id, record.version);
    if (!refusal.empty()) {
      scanner.Filter(std::move(record), "static backend " + id + ": " + refusal);
      continue;
    }
    loading::RegisteredBackend backend;
    backend.info.id = BackendId(id);
    backend.info.vendor = identity->vendor ? identity->vendor : "";
    backend.info.version = identity->plugin_version ? identity->plugin_version : "";
    backend.info.api_version = version;
    backend.info.found_by = FoundBy::kStatic;
    backend.info.layer = kStaticLayer;
    backend.factory = loading::MakePluginFactory(nullptr, identity, entry.factory);
    scanner.Register(std::move(record), std::move(backend));
  }
}

void DiscoverDynamicBackends(const std::vector<SearchPath>& paths, DiscoveryContext& context) {
  struct Folder {
    std::string layer;
    std::vector<FolderEntry> entries;
  };
  std::vector<Folder> folders;
  for (const auto& path : paths) {
    if (!path.valid) continue;
    const fs::path folder = PathFromUtf8(path.path);
    folders.push_back({path.source, ListFolder(folder, context.log)});
    Log(context.log, LogLevel::kDebug, LogCategory::kDiscovery,
        "searching " + path.path + " (" + path.source + "): " + std::to_string(folders.back().entries.size()) +
            " entries");
    if (!IsDropLayer(path.source)) continue;
    // A drop folder holds one subfolder per installed drop (sdk-plugin install); a name starting
    // with '.' is one being installed or removed, never a candidate.
    const std::vector<FolderEntry> entries = folders.back().entries;
    for (const auto& entry : entries) {
      std::error_code error;
      if (entry.name.front() == '.' || !fs::is_directory(entry.path, error)) continue;
      folders.push_back({path.source, ListFolder(entry.path, context.log)});
    }
  }
  Scanner scanner(context);
  // Every manifest is read before any library is opened, so each id's candidates compete on
  // their manifests' versions and only the one chosen is opened.
  std::vector<ManifestCandidate> candidates;
  for (const auto& folder : folders) {
    for (const auto& entry : folder.entries) {
      if (!IsManifestFileName(entry.name)) continue;
      if (auto candidate = scanner.ReadManifest(entry, folder.layer)) {
        candidates.push_back(std::move(*candidate));
      }
    }
  }
  scanner.LoadBestOfEachId(std::move(candidates));
  for (const auto& folder : folders) {
    for (const auto& entry : folder.entries) {
      if (MatchesNamingScheme(entry.name)) scanner.ScanLibrary(entry, folder.layer);
    }
  }
}

}  // namespace backplane::discovery
