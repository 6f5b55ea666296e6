// The per-layer table of a profiled run (--per-layer, --profile): per step of the network its
// average time over the timed runs, its share of the total, its GFLOP/s where the runtime counts
// its FLOPs (ProfiledStepDetail::flops), what its backend says runs it, and whether it fell back
// from the preferred backend or runs a path its backend calls slow; and how long its backend took
// to create its workload when the network was loaded (where a load's time goes).
#pragma once

#include "loaded_network.hpp"
#include "timed_profile.hpp"

#include <optional>
#include <string>
#include <vector>

namespace backplane::sdk_run {

enum class LayerSort {
  kTime,   // slowest first (total time; ties in execution order)
  kName,   // by layer name
  kOrder,  // execution order
  kLoad,   // slowest to create at load first (ties in execution order)
};
const char* ToString(LayerSort sort);  // "time", "name", "order", "load"
std::optional<LayerSort> LayerSortFromString(const std::string& text);

// One step of the network over every profiled run. Value type.
struct LayerTiming {
  std::string layer;
  std::string op;          // layer type, "Copy" or "Import" (ProfiledStep::op)
  std::string backend;     // empty for the copy into the user's output
  std::size_t order = 0;   // execution order (step index)
  std::size_t calls = 0;   // profiled runs that ran it
  double total_ms = 0;     // over every call
  double average_ms = 0;   // total_ms / calls
  double share = 0;        // of every step's total time, in [0, 1]
  double flops = 0;        // per call; 0 when unknown (ProfiledStepDetail::flops)
  double gflops_per_s = 0; // flops / average time; 0 when flops is unknown or the time is 0
  std::string implementation;  // what runs it, as its backend says; may be empty
  std::string fallback;    // why it is not on the first preferred backend; empty when it is
  std::string slow_path;   // why its backend says it runs a slow path; empty when it does not
  double load_ms = 0;      // creating its workload at load (ProfiledStepDetail::load_ms)
};

// Aggregates `profile` per step, sorted by `sort`. A layer placed on another backend than
// `preferred` (the first of the preference order) carries the placement's reason as
// `fallback`, unless it was pinned there. Pure function.
std::vector<LayerTiming> BuildLayerTable(const TimedProfile& profile, const PlacementReport& placement,
                                         const std::string& preferred, LayerSort sort);

}  // namespace backplane::sdk_run
