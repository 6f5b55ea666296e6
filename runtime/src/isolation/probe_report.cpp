#include "isolation/probe_report.hpp"

#include <nlohmann/json.hpp>

namespace backplane::isolation {

using nlohmann::json;

namespace {
constexpr const char* kKind = "backplane-plugin-probe";
}  // namespace

std::string ProbeReportJson(const DiscoveryRecord& record) {
  const json document = {
      {"kind", kKind},
      {"record",
       {{"library_path", record.library_path},
        {"manifest_path", record.manifest_path},
        {"found_by", ToString(record.found_by)},
        {"stage", ToString(record.stage)},
        {"verdict", ToString(record.verdict)},
        {"code", ToString(record.code)},
        {"message", record.message},
        {"backend_id", record.backend_id}}},
  };
  return document.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
}

bool IsProbeReportFor(const std::string& output, const std::string& library) {
  const json document = json::parse(output, nullptr, false);
  if (document.is_discarded() || !document.is_object()) return false;
  try {
    if (document.value("kind", "") != kKind) return false;
    const auto record = document.find("record");
    return record != document.end() && record->is_object() && record->value("library_path", "") == library;
  } catch (const json::exception&) {
    return false;  // a field of another type
  }
}

}  // namespace backplane::isolation
