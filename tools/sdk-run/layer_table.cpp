#include "layer_table.hpp"

#include <algorithm>
#include <map>

namespace backplane::sdk_run {

namespace {

// Product of the dimensions, or 0 for an empty or negative (unknown) one.
double Elements(const TensorShape& shape) {
  double count = 1;
  for (std::int64_t dim : shape.Dims()) {
    if (dim <= 0) return 0;
    count *= static_cast<double>(dim);
  }
  return count;
}

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
  constexpr const char* kNames[] = {"time", "name", "order"};  // indexed by LayerSort
  return kNames[static_cast<int>(sort)];
}

std::optional<LayerSort> LayerSortFromString(const std::string& text) {
  for (LayerSort sort : {LayerSort::kTime, LayerSort::kName, LayerSort::kOrder}) {
    if (text == ToString(sort)) return sort;
  }
  return std::nullopt;
}

double LayerFlops(const ProfiledStep& step) {
  if (step.outputs.size() != 1) return 0;
  const double outputs = Elements(step.outputs[0].shape);
  if (step.op == "Convolution2d" && step.inputs.size() >= 2 && step.inputs[1].shape.Rank() == 4) {
    const TensorShape& weights = step.inputs[1].shape;  // [M, C/groups, kH, kW]
    return weights[0] > 0 ? 2 * outputs * Elements(weights) / static_cast<double>(weights[0]) : 0;
  }
  if (step.op == "MatMul" && step.inputs.size() == 2 && step.inputs[0].shape.Rank() >= 1) {
    const TensorShape& a = step.inputs[0].shape;  // [..., M, K] or [K]
    return 2 * outputs * static_cast<double>(std::max<std::int64_t>(a[a.Rank() - 1], 0));
  }
  if (step.op == "FullyConnected" && step.inputs.size() >= 2 && step.outputs[0].shape.Rank() == 2) {
    // B is [K, N] or, transposed, [N, K]: K = elements of B / N.
    const double n = static_cast<double>(step.outputs[0].shape[1]);
    return n > 0 ? 2 * outputs * Elements(step.inputs[1].shape) / n : 0;
  }
  return 0;
}

std::vector<LayerTiming> BuildLayerTable(const TimedProfile& profile, const PlacementReport& placement,
                                         const std::string& preferred, LayerSort sort) {
  std::map<std::string, const LayerPlacement*> placed;
  for (const LayerPlacement& layer : placement.layers) placed[layer.layer] = &layer;

  std::vector<LayerTiming> table(profile.steps.size());
  for (std::size_t s = 0; s < profile.steps.size(); ++s) {
    const ProfiledStep& step = profile.steps[s];
    const auto found = placed.find(step.layer);
    table[s] = {step.layer, step.op, step.backend.Get(), s, 0, 0, 0, 0, LayerFlops(step), 0,
                Fallback(found == placed.end() ? nullptr : found->second, preferred)};
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
      case LayerSort::kOrder: break;
    }
    return a.order < b.order;
  };
  std::stable_sort(table.begin(), table.end(), by);
  return table;
}

}  // namespace backplane::sdk_run
