#include "run_report.hpp"

namespace backplane::sdk_run {

ExitCode RunReport::Status() const {
  if (interrupted) return ExitCode::kInterrupted;
  for (const ExpectedOutput& output : expected) {
    if (!output.difference.within_tolerance) return ExitCode::kAboveTolerance;
  }
  return latency_limit.within ? ExitCode::kOk : ExitCode::kAboveLatencyLimit;
}

ExitCode SetsReport::Status() const {
  if (interrupted) return ExitCode::kInterrupted;
  for (const InputSetReport& set : sets) {
    for (const ExpectedOutput& output : set.expected) {
      if (!output.difference.within_tolerance) return ExitCode::kAboveTolerance;
    }
  }
  for (const ShapeReport& shape : shapes) {
    if (!shape.latency_limit.within) return ExitCode::kAboveLatencyLimit;
  }
  return ExitCode::kOk;
}

bool CompareReport::WithinTolerance() const {
  for (const OutputDifference& output : outputs) {
    if (!output.within_tolerance) return false;
  }
  return true;
}

std::vector<BackendCount> CountByBackend(const PlacementReport& placement) {
  std::vector<BackendCount> counts;
  for (const LayerPlacement& layer : placement.layers) {
    if (layer.backend.IsEmpty()) continue;
    BackendCount* found = nullptr;
    for (BackendCount& count : counts) {
      if (count.backend == layer.backend.Get()) found = &count;
    }
    if (found == nullptr) found = &counts.emplace_back(BackendCount{layer.backend.Get(), 0});
    ++found->layers;
  }
  return counts;
}

}  // namespace backplane::sdk_run
