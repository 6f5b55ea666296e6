// --profile: the timed runs' per-step events, written as a Chrome trace.
#pragma once

#include "timed_profile.hpp"

#include <ostream>
#include <string>

namespace backplane::sdk_run {

// Checks, before any run, that `path` can become the trace: its folder exists and it is not a
// folder itself. Throws ToolError (kCannotWrite) naming the path otherwise.
void CheckProfilePath(const std::string& path);

// Writes `profile` as a Chrome trace (chrome://tracing, ui.perfetto.dev): {"traceEvents":
// [...], "displayTimeUnit": "ms"} with one complete ("ph": "X") event per step of every run,
// named by the layer, "cat" its backend ("runtime" for none), "ts" in microseconds from the
// first timed run's start, "tid" the execution context (1-based), and "args" {"run", "context",
// "op", "backend", "input_shapes", "output_shapes"}. Streams event by event, so a long
// profile is never one document in memory. Bytes of a name that are not UTF-8 become U+FFFD.
void WriteTrace(const TimedProfile& profile, std::ostream& out);

// WriteTrace into the file `path`. Returns the number of events. Throws ToolError
// (kCannotWrite) naming the file when it cannot be written.
std::size_t WriteProfileTrace(const TimedProfile& profile, const std::string& path);

}  // namespace backplane::sdk_run
