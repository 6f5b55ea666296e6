#include "discovery_records.hpp"

#include "capturing_log_sink.hpp"

#include <memory>
#include <sstream>

namespace backplane::unit {

namespace fs = std::filesystem;

std::vector<const DiscoveryRecord*> RecordsFor(const DiscoveryReport& report,
                                               const std::string& file_name) {
  std::vector<const DiscoveryRecord*> found;
  for (const auto& record : report.records) {
    const std::string& named_by =
        record.manifest_path.empty() ? record.library_path : record.manifest_path;
    if (fs::path(named_by).filename().string() == file_name) found.push_back(&record);
  }
  return found;
}

const DiscoveryRecord* RecordFor(const DiscoveryReport& report, const std::string& file_name) {
  const auto found = RecordsFor(report, file_name);
  return found.size() == 1 ? found.front() : nullptr;
}

std::string CodeOf(const DiscoveryReport& report, const std::string& file_name) {
  const DiscoveryRecord* record = RecordFor(report, file_name);
  return record ? ToString(record->code) : "<no record>";
}

std::string VerdictOf(const DiscoveryReport& report, const std::string& file_name) {
  const DiscoveryRecord* record = RecordFor(report, file_name);
  return record ? ToString(record->verdict) : "<no record>";
}

std::string Describe(const DiscoveryRecord& record) {
  std::ostringstream text;
  text << "{found_by=" << ToString(record.found_by) << " stage=" << ToString(record.stage)
       << " verdict=" << ToString(record.verdict) << " code=" << ToString(record.code)
       << " backend_id=\"" << record.backend_id << "\" manifest=\"" << record.manifest_path
       << "\" library=\"" << record.library_path << "\" message=\"" << record.message << "\"";
  for (const auto& warning : record.warnings) text << " warning=\"" << warning << "\"";
  text << "}";
  return text.str();
}

std::string Describe(const DiscoveryReport& report) {
  std::ostringstream text;
  text << "report: dynamic_loading_enabled=" << report.dynamic_loading_enabled << "\n";
  for (const auto& path : report.search_paths) {
    text << "  path \"" << path.path << "\" source=" << path.source << " valid=" << path.valid
         << " reason=\"" << path.reason << "\"\n";
  }
  for (const auto& record : report.records) text << "  " << Describe(record) << "\n";
  return text.str();
}

std::string Mismatch(const DiscoveryRecord* record, const ExpectedRecord& expected) {
  if (record == nullptr) return "no record, or more than one, for this file";
  std::ostringstream text;
  if (record->verdict != expected.verdict) {
    text << "verdict " << ToString(record->verdict) << ", expected " << ToString(expected.verdict)
         << "\n";
  }
  if (record->code != expected.code) {
    text << "code " << ToString(record->code) << ", expected " << ToString(expected.code) << "\n";
  }
  if (record->stage != expected.stage) {
    text << "stage " << ToString(record->stage) << ", expected " << ToString(expected.stage)
         << "\n";
  }
  if (record->found_by != expected.found_by) {
    text << "found_by " << ToString(record->found_by) << ", expected "
         << ToString(expected.found_by) << "\n";
  }
  for (const auto& part : expected.message_contains) {
    if (!Contains(record->message, part)) text << "message lacks \"" << part << "\"\n";
  }
  const std::string differences = text.str();
  return differences.empty() ? std::string() : differences + "record: " + Describe(*record);
}

RuntimeOptions OptionsFor(const std::vector<fs::path>& folders, bool allow_no_backends) {
  RuntimeOptions options;
  for (const auto& folder : folders) options.backend_paths.push_back(folder.string());
  options.enable_dynamic_backends = true;
  options.enable_static_backends = false;
  options.allow_no_backends = allow_no_backends;
  options.log_sink = std::make_shared<CapturingLogSink>();
  // Unsigned test plugins load, marked, whatever this machine's environment or configuration
  // says (trust_test.cpp sets the policy it tests).
  options.trust.policy = TrustPolicy::kWarn;
  return options;
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace backplane::unit
