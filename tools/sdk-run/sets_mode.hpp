// sdk-run --input-set: several sets of inputs, of one or more shapes, through one onnx::Session.
#pragma once

#include "command_line.hpp"
#include "run_report.hpp"

namespace backplane::sdk_run {

// Opens --model as one onnx::Session (--backends, --strict, --pin; --max-specializations
// shapes kept loaded), reads and checks every --input-set (and --expected-set) against it,
// then runs round-robin: each set once in order (its first run: a new shape is imported,
// optimized and loaded by it), --warmup untimed rounds, then --iterations (or --duration)
// timed rounds of one run of every set each. Round-robin rather than set by set, as a server
// of mixed shapes runs: every run switches shape, so a cache smaller than the number of shapes
// shows as reloads. Ctrl-C stops the runs (the report covers those done). The latency of a run
// is Session::Run's, which includes allocating and filling its outputs.
// Throws ToolError: kBadModel (model file), kBadInput (a set's or an expected file, naming
// the set, the input or output and the file), kRuntimeFailure (a run failed, naming the set
// and the run), kUsage (a backend that is not available).
SetsReport RunInputSets(const CommandLine& command_line, bool show_progress);

}  // namespace backplane::sdk_run
