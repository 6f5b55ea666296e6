#include "discovery/preference_order.hpp"

#include "discovery/search_paths.hpp"

#include <algorithm>
#include <tuple>

namespace backplane::discovery {

namespace {

bool IsReferenceImplementation(const BackendInfo& info) {
  const auto value = info.capabilities.values.find(backend::kReferenceImplementation);
  return value != info.capabilities.values.end() && value->second;
}

// 0 accelerator, 1 gpu, 2 cpu, 3 reference implementation.
int KindRank(const BackendInfo& info) {
  if (IsReferenceImplementation(info)) return 3;
  switch (info.capabilities.device_kind) {
    case backend::DeviceKind::kAccelerator: return 0;
    case backend::DeviceKind::kGpu: return 1;
    case backend::DeviceKind::kCpu: return 2;
  }
  return 2;
}

std::string Explain(const BackendInfo& info) {
  if (IsReferenceImplementation(info)) return "reference implementation: last";
  std::string text = std::string(backend::ToString(info.capabilities.device_kind)) + " backend";
  if (IsDropLayer(info.layer)) text += " from a drop folder (" + info.layer + "): after the SDK's own";
  return text;
}

}  // namespace

void ApplyDefaultPreferenceOrder(loading::BackendRegistry& registry) {
  auto& entries = registry.Entries();
  auto key = [](const loading::RegisteredBackend& backend) {
    return std::make_tuple(KindRank(backend.info), IsDropLayer(backend.info.layer), backend.info.id.Get());
  };
  std::stable_sort(entries.begin(), entries.end(),
                   [&](const auto& a, const auto& b) { return key(a) < key(b); });
  for (auto& backend : entries) backend.info.preference = Explain(backend.info);
}

}  // namespace backplane::discovery
