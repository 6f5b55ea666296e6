// What profiling the timed runs records: each step's description once, and per timed run when
// it started and how long each of its steps took.
#pragma once

#include <backplane/execution.hpp>

#include <cstddef>
#include <vector>

namespace backplane::sdk_run {

struct StepTime {
  std::size_t step = 0;     // index into TimedProfile::steps
  double start_us = 0;      // from the start of the run
  double duration_us = 0;
};

// One timed run of one execution context. Value type.
struct ProfiledRun {
  int context = 0;          // 0-based
  int run = 0;              // 0-based timed run of that context (warmup runs are not recorded)
  double start_us = 0;      // from the first timed run's start (all contexts start together)
  std::vector<StepTime> steps;
};

// The most timed runs of one context that are profiled: the first ones. Later runs are timed
// but not recorded, so a long --duration run's profile (about 24 bytes per step and run in
// memory, 250 per event in the trace) stays bounded.
inline constexpr int kMaxProfiledRunsPerContext = 1000;

// Value type. Empty when the runs were not profiled.
struct TimedProfile {
  std::vector<ProfiledStep> steps;  // the network's steps (the same in every context)
  std::vector<ProfiledStepDetail> details;  // indexed like steps
  std::vector<ProfiledRun> runs;    // by context, then run

  std::size_t EventCount() const;
};

// The last run of `context`, profiled: its events as StepTimes. Allocates once per run.
ProfiledRun TakeProfiledRun(const ExecutionContext& context, int context_index, int run, double start_us);

}  // namespace backplane::sdk_run
