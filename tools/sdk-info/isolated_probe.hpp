// sdk-info --isolate: each plugin library is first loaded by a child sdk-info (the hidden
// --probe-one mode) with a time limit, so a library that crashes or hangs while it is opened
// or while its factory runs is reported as a rejected candidate instead of taking sdk-info
// down with it.
#pragma once

#include <backplane/discovery_report.hpp>

#include <string>
#include <vector>

namespace backplane::sdk_info {

// What every probe needs; the same for all candidates of one run.
struct ProbeSettings {
  std::string program;             // this executable (boost::dll::program_location())
  std::vector<std::string> paths;  // the --path folders, passed on so the child scans the same
  double timeout_seconds = 10;     // per candidate; the child is killed after this
  bool verbose = false;            // child gets --verbose and keeps its stderr
};

// Runs `program --probe-one <candidate.library_path>` and waits at most the timeout. Returns ""
// when the child finished the probe (whatever the candidate's verdict: the runtime then opens
// the library itself and records that verdict), else the reason the library must not be
// opened in this process, naming the library: it crashed (with the signal), hung (killed
// after the timeout), or exited before reporting. Usable as RuntimeOptions::library_filter.
// Throws std::runtime_error when the child cannot be started at all.
std::string ProbeInChildProcess(const ProbeSettings& settings, const DiscoveryRecord& candidate);

// The text for a timeout: "2 s", "0.5 s".
std::string FormatSeconds(double seconds);

}  // namespace backplane::sdk_info
