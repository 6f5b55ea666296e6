#include "layer_table.hpp"

#include <algorithm>
#include <map>

namespace backplane::sdk_run {

namespace {

// Why `layer` is not on `preferred`: its placement reason, or empty when it is on `preferred`,
// has no backend (a copy into the user's output) or was pinned where it is.
std::string Fallback(const LayerPlacement* layer, const std::string& preferred) {
  if (layer == nullptr || layer->backend.IsEmpty() || preferred.empty() || layer->backend.Get() == preferred) {
    return "";
  }
  if (layer->reason.rfind("pinned", 0) == 0) return "";
  return layer->reason.empty() ? "not on " + preferred : layer->reason;
}

}  // namespace

const char* ToString(LayerSort sort) {
  constexpr const char* kNames[] = {"time", "name", "order", "load"};  // indexed by LayerSort
  return kNames[static_cast<int>(sort)];
}

std::optional<LayerSort> LayerSortFromString(const std::string& text) {
  for (LayerSort sort : {LayerSort::kTime, LayerSort::kName, LayerSort::kOrder, LayerSort::kLoad}) {
    if (text == ToString(sort)) return sort;
  }
  return std::nullopt;
}

std::vector<LayerTiming> BuildLayerTable(const TimedProfile& profile, const PlacementReport& placement,
                                         const std::string& preferred, LayerSort sort) {
  std::map<std::string, const LayerPlacement*> placed;
  for (const LayerPlacement& layer : placement.layers) placed[layer.layer] = &layer;

  std::vector<LayerTiming> table(profile.steps.size());
  for (std::size_t s = 0; s < profile.steps.size(); ++s) {
    const ProfiledStep& step = profile.steps[s];
    const ProfiledStepDetail detail = s < profile.details.size() ? profile.details[s] : ProfiledStepDetail();
    const auto found = placed.find(step.layer);
    LayerTiming& row = table[s];
    row.layer = step.layer;
    row.op = step.op;
    row.backend = step.backend.Get();
    row.order = s;
    row.flops = detail.flops;
    row.implementation = detail.implementation;
    row.fallback = Fallback(found == placed.end() ? nullptr : found->second, preferred);
    row.slow_path = detail.slow_path;
    row.load_ms = detail.load_ms;
  }
  double all_ms = 0;
  for (const ProfiledRun& run : profile.runs) {
    for (const StepTime& time : run.steps) {
      if (time.step >= table.size()) continue;
      ++table[time.step].calls;
      table[time.step].total_ms += time.duration_us / 1000.0;
      all_ms += time.duration_us / 1000.0;
    }
  }
  for (LayerTiming& row : table) {
    if (row.calls > 0) row.average_ms = row.total_ms / static_cast<double>(row.calls);
    if (all_ms > 0) row.share = row.total_ms / all_ms;
    if (row.flops > 0 && row.average_ms > 0) row.gflops_per_s = row.flops / (row.average_ms * 1e6);
  }
  const auto by = [sort](const LayerTiming& a, const LayerTiming& b) {
    switch (sort) {
      case LayerSort::kTime: return a.total_ms > b.total_ms;
      case LayerSort::kName: return a.layer < b.layer;
      case LayerSort::kLoad: return a.load_ms > b.load_ms;
      case LayerSort::kOrder: break;
    }
    return a.order < b.order;
  };
  std::stable_sort(table.begin(), table.end(), by);
  return table;
}

}  // namespace backplane::sdk_run
