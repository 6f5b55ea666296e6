// What sdk-info reports: the runtime's discovery report and registered backends, with each
// record sorted into the group it is printed in.
#pragma once

#include "exit_code.hpp"

#include <backplane/discovery_report.hpp>
#include <backplane/runtime.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace backplane::sdk_info {

// Value type. Indices refer to report.records; every record is in exactly one group.
struct Inventory {
  DiscoveryReport report;
  std::vector<BackendInfo> backends;                       // the default preference order
  std::vector<std::optional<std::size_t>> backend_record;  // per backend: its record, if any
  std::vector<std::size_t> rejected;                       // verdict rejected
  // Duplicates, superseded and filtered candidates (informational), and registered records
  // that match no listed backend.
  std::vector<std::size_t> other;
  // The trust policy and keys the runtime was created with (ResolveTrustSettings).
  TrustSettings trust;

  std::size_t CountVerdict(Verdict verdict) const;
};

// The file that names a candidate: its manifest, or its library when it has no manifest (empty
// for a static backend's record).
const std::string& CandidateFile(const DiscoveryRecord& record);

// "string", "integer" or "boolean": how the text and JSON reports name an option's type.
const char* OptionTypeName(backend::OptionSpec::Type type);

// Sorts the records. A backend's record is the first registered record with its id and
// found_by; each record is used at most once.
Inventory MakeInventory(DiscoveryReport report, std::vector<BackendInfo> backends);

// The discovery record of inventory.backends[backend], or nullptr when it has none.
const DiscoveryRecord* RecordOf(const Inventory& inventory, std::size_t backend);

// The position in inventory.backends of the registered backend `id` (compared exactly: ids are
// case-sensitive), or nullopt.
std::optional<std::size_t> FindBackend(const Inventory& inventory, const std::string& id);

// The indices of the records whose backend_id is `id`, in discovery order, except `skip` (a
// backend's own record).
std::vector<std::size_t> RecordsOf(const Inventory& inventory, const std::string& id,
                                   std::optional<std::size_t> skip = std::nullopt);

// Why --backend `id` has nothing to show: names the id, the registered ids, and each candidate
// that carried the id but was not registered, with its verdict and reason code.
std::string BackendNotFoundMessage(const Inventory& inventory, const std::string& id);

// kNoBackends when nothing is registered, else kCandidatesRejected when any record is
// rejected, else kOk. Duplicates and invalid search folders alone do not change the result.
ExitCode ExitCodeFor(const Inventory& inventory);

}  // namespace backplane::sdk_info
