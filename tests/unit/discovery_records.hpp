// Finding and checking the records of a DiscoveryReport, and the runtime options every unit
// test starts from.
#pragma once

#include <backplane/discovery_report.hpp>
#include <backplane/runtime.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace backplane::unit {

// What one record must say. Every listed substring must appear in the message.
struct ExpectedRecord {
  Verdict verdict;
  ReasonCode code;
  DiscoveryStage stage;
  FoundBy found_by;
  std::vector<std::string> message_contains;
};

// The records of the candidate whose file is called `file_name`: a manifest candidate is named
// by its manifest file, a naming-scheme candidate by its library file.
std::vector<const DiscoveryRecord*> RecordsFor(const DiscoveryReport& report,
                                               const std::string& file_name);
// The one record for `file_name`, or null when there is none or more than one.
const DiscoveryRecord* RecordFor(const DiscoveryReport& report, const std::string& file_name);

// The ToString of the code / verdict of the one record for `file_name`, or "<no record>" when
// there is none or more than one; safe to compare in a CHECK.
std::string CodeOf(const DiscoveryReport& report, const std::string& file_name);
std::string VerdictOf(const DiscoveryReport& report, const std::string& file_name);

// "" when `record` is what `expected` says; otherwise each difference on its own line, followed
// by the whole record. A null record is a difference too.
std::string Mismatch(const DiscoveryRecord* record, const ExpectedRecord& expected);

// One line per field / record, for INFO() in failing tests.
std::string Describe(const DiscoveryRecord& record);
std::string Describe(const DiscoveryReport& report);

// Options for a runtime that searches exactly `folders` (in that order): no static backends,
// no environment or compiled-in folders, `allow_no_backends` as given, trust policy warn, and a
// capturing log sink so the tests' output stays clean.
RuntimeOptions OptionsFor(const std::vector<std::filesystem::path>& folders,
                          bool allow_no_backends = true);

// True when `text` contains `part`.
bool Contains(const std::string& text, const std::string& part);

}  // namespace backplane::unit
