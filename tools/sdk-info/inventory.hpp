// What sdk-info reports: the runtime's discovery report and registered backends, with each
// record sorted into the group it is printed in.
#pragma once

#include "exit_code.hpp"

#include <backplane/discovery_report.hpp>
#include <backplane/runtime.hpp>

#include <cstddef>
#include <optional>
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

// Sorts the records. A backend's record is the first registered record with its id and
// found_by; each record is used at most once.
Inventory MakeInventory(DiscoveryReport report, std::vector<BackendInfo> backends);

// kNoBackends when nothing is registered, else kCandidatesRejected when any record is
// rejected, else kOk. Duplicates and invalid search folders alone do not change the result.
ExitCode ExitCodeFor(const Inventory& inventory);

}  // namespace backplane::sdk_info
