#include "isolation/plugin_isolator.hpp"

#include "isolation/plugin_probe.hpp"
#include "log.hpp"
#include "platform/environment.hpp"

#include <backplane/exception.hpp>
#include <backplane/path_text.hpp>

#include <boost/dll/runtime_symbol_info.hpp>

#include <system_error>

#ifndef BACKPLANE_PROBE_RELATIVE_PATH  // given to this file alone by runtime/CMakeLists.txt
#error "runtime/CMakeLists.txt compiles the probe's install path into plugin_isolator.cpp; this build did not"
#endif

namespace backplane::isolation {

namespace fs = std::filesystem;

fs::path DefaultVerdictStoreFolder() {
  const fs::path base = platform::UserBaseFolder(platform::UserFolderKind::kCache);
  return base.empty() ? fs::path() : base / "backplane" / "plugin-verdicts";
}

fs::path DefaultProbeProgram() {
  std::error_code error;
  const fs::path self = boost::dll::this_line_location(error);
  if (error || self.empty()) return {};
  return (self.parent_path() / BACKPLANE_PROBE_RELATIVE_PATH).lexically_normal();
}

namespace {

fs::path StoreFolder(const PluginIsolation& options) {
  if (!options.verdict_store.empty()) return PathFromUtf8(options.verdict_store);
  if (const auto folder = platform::SecureGetEnv(kPluginVerdictStoreEnvVar); folder && !folder->empty()) {
    return PathFromUtf8(*folder);
  }
  return DefaultVerdictStoreFolder();
}

}  // namespace

PluginIsolator::PluginIsolator(const PluginIsolation& options, const TrustSettings& trust, ILogSink& log)
    : timeout_seconds_(options.timeout_seconds > 0 ? options.timeout_seconds : 10),
      reprobe_(options.reprobe),
      program_(options.probe_program.empty() ? DefaultProbeProgram() : PathFromUtf8(options.probe_program)),
      log_(log) {
  trust_.policy = trust.policy;
  for (const TrustFolder& folder : trust.key_folders) trust_.key_folders.push_back(folder.path);
  const fs::path folder = StoreFolder(options);
  if (folder.empty()) {
    Log(log_, LogLevel::kWarning, LogCategory::kPlugin,
        "plugin isolation: no folder for the verdict store (set " + std::string(kPluginVerdictStoreEnvVar) +
            " or HOME); verdicts last this runtime's creation only");
  } else {
    store_.emplace(folder, log_);
  }
}

std::string PluginIsolator::Check(const DiscoveryRecord& candidate) {
  const std::string& library = candidate.library_path;
  std::string why;
  const std::optional<LibraryKey> key = ReadLibraryKey(PathFromUtf8(library), why);
  if (!key) {
    // Discovery's own checks reject what cannot be read; nothing of it runs in a child either.
    Log(log_, LogLevel::kDebug, LogCategory::kPlugin, "plugin isolation: not probing " + library + ": " + why);
    return {};
  }
  if (store_ && !reprobe_) {
    if (const std::optional<StoredVerdict> stored = store_->Find(*key)) {
      if (stored->outcome == ProbeOutcome::kPassed) {
        Log(log_, LogLevel::kDebug, LogCategory::kPlugin,
            "plugin isolation: " + library + " passed its probe at " + stored->probed_at + "; not probed again");
        return {};
      }
      const bool longer_timeout = stored->outcome == ProbeOutcome::kHung && timeout_seconds_ > stored->timeout_seconds;
      if (!longer_timeout) {
        std::string refusal = library + " is quarantined since " + stored->probed_at + ": it " + stored->reason +
                              "; the runtime does not load it until the file changes or " +
                              PathToUtf8(store_->EntryFor(key->path)) +
                              " is deleted (sdk-info --isolate probes it again)";
        return refusal;  // discovery logs the record
      }
    }
  }
  return Probe(*key, library);
}

std::string PluginIsolator::Probe(const LibraryKey& key, const std::string& library) {
  Log(log_, LogLevel::kInfo, LogCategory::kPlugin,
      "plugin isolation: probing " + library + " in a child process (" + PathToUtf8(program_) + ")");
  ++probes_started_;
  ProbeResult result;
  try {
    ProbeRequest request = trust_;
    request.library = library;
    result = ProbeLibrary(program_, request, timeout_seconds_, log_);
  } catch (const Exception& error) {
    return library + " was not loaded: plugin isolation is on, but " + error.what();
  }
  StoredVerdict verdict;
  verdict.key = key;
  verdict.outcome = result.outcome;
  verdict.reason = result.reason;
  verdict.timeout_seconds = timeout_seconds_;
  verdict.probed_at = UtcNow();
  verdict.runtime = RuntimeIdentity();
  // A file replaced while it was probed gets no verdict: the next start probes the new one.
  std::string ignored;
  const std::optional<LibraryKey> after = ReadLibraryKey(PathFromUtf8(library), ignored);
  const bool saved = store_ && after == key && store_->Save(verdict);
  if (result.outcome == ProbeOutcome::kPassed) return {};
  std::string refusal = library + " " + result.reason + "; the runtime did not load it" +
                        (saved ? " and quarantined it until the file changes (verdict stored in " +
                                     PathToUtf8(store_->EntryFor(key.path)) + ")"
                               : std::string(" (the verdict is not remembered)"));
  return refusal;  // discovery logs the record
}

}  // namespace backplane::isolation
