#include "inventory.hpp"

#include <algorithm>
#include <utility>

namespace backplane::sdk_info {

std::size_t Inventory::CountVerdict(Verdict verdict) const {
  return static_cast<std::size_t>(
      std::count_if(report.records.begin(), report.records.end(),
                    [verdict](const DiscoveryRecord& record) { return record.verdict == verdict; }));
}

Inventory MakeInventory(DiscoveryReport report, std::vector<BackendInfo> backends) {
  Inventory inventory;
  inventory.report = std::move(report);
  inventory.backends = std::move(backends);
  const std::vector<DiscoveryRecord>& records = inventory.report.records;

  std::vector<bool> used(records.size(), false);
  for (const BackendInfo& backend : inventory.backends) {
    std::optional<std::size_t> match;
    for (std::size_t i = 0; i < records.size(); ++i) {
      const DiscoveryRecord& record = records[i];
      if (!used[i] && record.verdict == Verdict::kRegistered &&
          record.backend_id == backend.id.Get() && record.found_by == backend.found_by) {
        match = i;
        used[i] = true;
        break;
      }
    }
    inventory.backend_record.push_back(match);
  }
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (used[i]) continue;
    if (records[i].verdict == Verdict::kRejected) {
      inventory.rejected.push_back(i);
    } else {
      inventory.other.push_back(i);
    }
  }
  return inventory;
}

ExitCode ExitCodeFor(const Inventory& inventory) {
  if (inventory.backends.empty()) return ExitCode::kNoBackends;
  if (!inventory.rejected.empty()) return ExitCode::kCandidatesRejected;
  return ExitCode::kOk;
}

}  // namespace backplane::sdk_info
