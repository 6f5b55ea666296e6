#include "json_report.hpp"

#include "discovery_json.hpp"

#include <backplane/plugin.hpp>
#include <backplane/version.hpp>

#include <nlohmann/json.hpp>

#include <utility>
#include <vector>

namespace backplane::sdk_info {

namespace {

using json = nlohmann::ordered_json;  // fields in the documented order
using tools::ToJson;

json ToJson(const SearchPath& path) {
  return {{"path", path.path}, {"source", path.source}, {"valid", path.valid},
          {"reason", path.reason}, {"normally_absent", path.normally_absent}};
}

json ToJson(const backend::BackendCapabilities& capabilities) {
  json data_types = json::array();
  for (DataType type : capabilities.data_types) data_types.push_back(ToString(type));
  json layer_types = json::array();
  for (backend::LayerType type : capabilities.layer_types) layer_types.push_back(ToString(type));
  json values = json::object();
  for (const auto& [name, value] : capabilities.values) values[name] = value;
  return {{"device_kind", ToString(capabilities.device_kind)},
          {"data_types", std::move(data_types)},
          {"layer_types", std::move(layer_types)},
          {"values", std::move(values)}};
}

json ToJson(const backend::DeviceInfo& device) {
  return {{"name", device.name}, {"kind", ToString(device.kind)},
          {"available", device.available}, {"reason", device.reason}};
}

json ToJson(const backend::OptionSpec& option) {
  return {{"key", option.key}, {"type", OptionTypeName(option.type)}, {"default", option.default_value}, {"doc", option.doc}};
}

// The JSON array of `items`, each through its ToJson.
template <typename Item>
json ToJsonArray(const std::vector<Item>& items) {
  json array = json::array();
  for (const Item& item : items) array.push_back(ToJson(item));
  return array;
}

json ToJson(const BackendInfo& backend, const DiscoveryRecord* record) {
  return {{"id", backend.id.Get()},
          {"vendor", backend.vendor},
          {"version", backend.version},
          {"api_version", ToString(backend.api_version)},
          {"found_by", ToString(backend.found_by)},
          {"layer", backend.layer},
          {"preference", backend.preference},
          {"library_path", backend.library_path},
          {"manifest_path", backend.manifest_path},
          {"signature", ToJson(backend.signature)},
          {"capabilities", ToJson(backend.capabilities)},
          {"devices", ToJsonArray(backend.devices)},
          {"options", ToJsonArray(backend.options)},
          {"available", backend.available},
          {"unavailable_reason", backend.unavailable_reason},
          {"warnings", record != nullptr ? json(record->warnings) : json::array()}};
}

json BackendSummary(const BackendInfo& backend) {
  return {{"id", backend.id.Get()},
          {"vendor", backend.vendor},
          {"version", backend.version},
          {"api_version", ToString(backend.api_version)},
          {"available", backend.available},
          {"unavailable_reason", backend.unavailable_reason},
          {"devices", ToJsonArray(backend.devices)}};
}

json Counts(const Inventory& inventory) {
  return {{"backends", inventory.backends.size()},
          {"registered", inventory.CountVerdict(Verdict::kRegistered)},
          {"rejected", inventory.CountVerdict(Verdict::kRejected)},
          {"duplicate", inventory.CountVerdict(Verdict::kDuplicate)},
          {"superseded", inventory.CountVerdict(Verdict::kSuperseded)},
          {"filtered", inventory.CountVerdict(Verdict::kFiltered)}};
}

json Records(const Inventory& inventory, const std::vector<std::size_t>& indices) {
  json records = json::array();
  for (std::size_t index : indices) records.push_back(ToJson(inventory.report.records[index]));
  return records;
}

// The document of a discovery run: status and exit code from ExitCodeFor.
std::string FinishInventoryDocument(json document, const Inventory& inventory) {
  const ExitCode exit_code = ExitCodeFor(inventory);
  return FinishDocument(std::move(document), ToString(exit_code), exit_code);
}

}  // namespace

json DocumentHeader(const char* kind) {
  return {{"format", kJsonFormatVersion},
          {"kind", kind},
          {"sdk_version", ToString(kSdkVersion)},
          {"backend_api_version", ToString(kBackendApiVersion)},
          {"platform", BACKPLANE_PLATFORM_TAG},
          {"abi", BACKPLANE_ABI_TAG}};
}

std::string FinishDocument(json document, const char* status, ExitCode exit_code) {
  document["status"] = status;
  document["exit_code"] = static_cast<int>(exit_code);
  return document.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string JsonReport(const Inventory& inventory) {
  json backends = json::array();
  for (std::size_t i = 0; i < inventory.backends.size(); ++i) {
    backends.push_back(ToJson(inventory.backends[i], RecordOf(inventory, i)));
  }

  json document = DocumentHeader("discovery");
  document["dynamic_loading_enabled"] = inventory.report.dynamic_loading_enabled;
  document["search_paths"] = ToJsonArray(inventory.report.search_paths);
  document["trust"] = ToJson(inventory.trust);
  document["backends"] = std::move(backends);
  document["records"] = ToJsonArray(inventory.report.records);
  document["summary"] = Counts(inventory);
  return FinishInventoryDocument(std::move(document), inventory);
}

std::string JsonSummary(const Inventory& inventory) {
  json backends = json::array();
  for (const BackendInfo& backend : inventory.backends) backends.push_back(BackendSummary(backend));
  json document = DocumentHeader("summary");
  document["backends"] = std::move(backends);
  document["rejected"] = Records(inventory, inventory.rejected);
  document["summary"] = Counts(inventory);
  return FinishInventoryDocument(std::move(document), inventory);
}

std::string JsonBackend(const Inventory& inventory, std::size_t backend) {
  const BackendInfo& info = inventory.backends.at(backend);
  json document = DocumentHeader("backend");
  document["backend"] = ToJson(info, RecordOf(inventory, backend));
  document["records"] = Records(inventory, RecordsOf(inventory, info.id.Get()));
  return FinishDocument(std::move(document), ToString(ExitCode::kOk), ExitCode::kOk);
}

std::string JsonError(ExitCode code, const std::string& message) {
  json document = DocumentHeader("error");
  document["error"] = {{"code", ToString(code)}, {"message", message}};
  return FinishDocument(std::move(document), ToString(code), code);
}

}  // namespace backplane::sdk_info
