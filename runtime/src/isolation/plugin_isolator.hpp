// RuntimeOptions::isolation at work: decides, per plugin library, whether this process may open
// it, from the verdict store or from a fresh probe in a child process.
#pragma once

#include "isolation/probe_report.hpp"
#include "isolation/verdict_store.hpp"

#include <backplane/discovery_report.hpp>
#include <backplane/logging.hpp>
#include <backplane/runtime_options.hpp>
#include <backplane/trust.hpp>

#include <filesystem>
#include <optional>
#include <string>

namespace backplane::isolation {

// The per-user cache folder for verdicts (see PluginIsolation::verdict_store), or "" when the
// environment names none. Thread-safe as long as nobody calls setenv concurrently.
std::filesystem::path DefaultVerdictStoreFolder();

// backplane-plugin-probe in the libexec folder of the install tree libbackplane lies in (in
// the build tree: the same layout under the build folder). "" when libbackplane's own location
// cannot be determined.
std::filesystem::path DefaultProbeProgram();

// One per Runtime::Create with isolation enabled; `log` must outlive it. Each probe runs under
// `trust`, the settings this runtime's discovery applies. Not thread-safe (Create calls it on one
// thread, in scan order).
class PluginIsolator {
 public:
  PluginIsolator(const PluginIsolation& options, const TrustSettings& trust, ILogSink& log);

  // The library filter: "" when the library may be opened in this process (a stored or fresh
  // verdict says the probe passed, or the file is not one the runtime can read, which discovery
  // then rejects itself), else the refusal for the candidate's record: which library, what
  // happened in the probe, since when it is quarantined and how to clear that. Never throws but
  // for std::bad_alloc.
  std::string Check(const DiscoveryRecord& candidate);

  // Probes started by this isolator (tests and logs).
  int ProbesStarted() const { return probes_started_; }

 private:
  std::string Probe(const LibraryKey& key, const std::string& library);

  double timeout_seconds_;
  bool reprobe_;
  std::filesystem::path program_;
  ProbeRequest trust_;  // the policy and key folders every probe gets (its library set per probe)
  std::optional<VerdictStore> store_;
  ILogSink& log_;
  int probes_started_ = 0;
};

}  // namespace backplane::isolation
