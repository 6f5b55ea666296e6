// sdk-run's human-readable output: a short summary for people (scripts use --json).
#pragma once

#include "run_report.hpp"

#include <ostream>

namespace backplane::sdk_run {

struct TextReportOptions {
  bool colour = false;   // ANSI colour (only when stdout is a terminal and NO_COLOR is unset)
  bool verbose = false;  // every layer's placement and reason, and the graph passes
};

// Model, inputs, backends, import/optimize/load times, latency percentiles, throughput,
// placement grouped by backend with counts, copies and the non-direct edges, outputs.
void WriteTextReport(std::ostream& out, const RunReport& report, const TextReportOptions& options);

// Model, inputs, the two runs, and per output the largest absolute and relative error with
// a verdict against the tolerance.
void WriteTextReport(std::ostream& out, const CompareReport& report, const TextReportOptions& options);

// The input sets with their first runs, per distinct shape its first-run cost and steady
// latency, the session's cache counts, and each set's last outputs (and --expected-set checks).
void WriteTextReport(std::ostream& out, const SetsReport& report, const TextReportOptions& options);

}  // namespace backplane::sdk_run
