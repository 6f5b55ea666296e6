// Loads one plugin library in a child process (the probe program, backplane-plugin-probe) and
// says how that went: the mechanism behind PluginIsolation.
#pragma once

#include "isolation/probe_report.hpp"
#include "isolation/verdict_store.hpp"

#include <backplane/logging.hpp>

#include <filesystem>
#include <string>

namespace backplane::isolation {

// Value type.
struct ProbeResult {
  ProbeOutcome outcome = ProbeOutcome::kPassed;
  // Empty when passed, else what happened, without the library's name: "crashed while loading
  // (SIGSEGV) in the probe process", "did not finish loading within 2 s (the probe process was
  // killed)", "made the probe process exit with status 3 before it finished loading".
  std::string reason;
};

// Runs `program` with ProbeArguments(request) (its stdout and stderr go to temporary files, never
// to this process's streams) and waits at most `timeout_seconds`, killing it then. The child reports the library's
// discovery record as one JSON document on stdout (probe_report.hpp); without that report, or
// with a crash or a non-zero status, the library did not pass. The child's stderr is logged at
// debug level (category plugin). Throws Exception (kNotFound) naming the program when it cannot
// be started. Thread-safe (no shared state; no signal handlers are installed).
ProbeResult ProbeLibrary(const std::filesystem::path& program, const ProbeRequest& request, double timeout_seconds,
                         ILogSink& log);

// "2 s", "0.5 s".
std::string FormatSeconds(double seconds);

}  // namespace backplane::isolation
