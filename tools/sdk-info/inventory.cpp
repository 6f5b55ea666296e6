#include "inventory.hpp"

#include <algorithm>
#include <utility>

namespace backplane::sdk_info {

std::size_t Inventory::CountVerdict(Verdict verdict) const {
  return static_cast<std::size_t>(
      std::count_if(report.records.begin(), report.records.end(),
                    [verdict](const DiscoveryRecord& record) { return record.verdict == verdict; }));
}

const std::string& CandidateFile(const DiscoveryRecord& record) {
  return record.manifest_path.empty() ? record.library_path : record.manifest_path;
}

const char* OptionTypeName(backend::OptionSpec::Type type) {
  switch (type) {
    case backend::OptionSpec::Type::kInteger: return "integer";
    case backend::OptionSpec::Type::kBoolean: return "boolean";
    case backend::OptionSpec::Type::kString: break;
  }
  return "string";
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

const DiscoveryRecord* RecordOf(const Inventory& inventory, std::size_t backend) {
  const std::optional<std::size_t> index = inventory.backend_record.at(backend);
  return index ? &inventory.report.records[*index] : nullptr;
}

std::optional<std::size_t> FindBackend(const Inventory& inventory, const std::string& id) {
  for (std::size_t i = 0; i < inventory.backends.size(); ++i) {
    if (inventory.backends[i].id.Get() == id) return i;
  }
  return std::nullopt;
}

std::vector<std::size_t> RecordsOf(const Inventory& inventory, const std::string& id,
                                   std::optional<std::size_t> skip) {
  std::vector<std::size_t> indices;
  for (std::size_t i = 0; i < inventory.report.records.size(); ++i) {
    if (inventory.report.records[i].backend_id == id && skip != i) indices.push_back(i);
  }
  return indices;
}

std::string BackendNotFoundMessage(const Inventory& inventory, const std::string& id) {
  std::string message = "no backend \"" + id + "\" is registered";
  if (inventory.backends.empty()) {
    message += " (no backend is registered at all)";
  } else {
    message += " (registered: ";
    for (const BackendInfo& backend : inventory.backends) {
      if (&backend != &inventory.backends.front()) message += ", ";
      message += backend.id.Get();
    }
    message += ")";
  }
  for (std::size_t index : RecordsOf(inventory, id)) {
    const DiscoveryRecord& record = inventory.report.records[index];
    message += "; candidate " + CandidateFile(record) + " was " + ToString(record.verdict) + " (" + ToString(record.code) + ")";
  }
  return message;
}

ExitCode ExitCodeFor(const Inventory& inventory) {
  if (inventory.backends.empty()) return ExitCode::kNoBackends;
  if (!inventory.rejected.empty()) return ExitCode::kCandidatesRejected;
  return ExitCode::kOk;
}

}  // namespace backplane::sdk_info
