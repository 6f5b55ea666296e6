#include "json_report.hpp"

#include "discovery_json.hpp"

#include <backplane/plugin.hpp>
#include <backplane/version.hpp>

#include <nlohmann/json.hpp>

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
  const char* type = option.type == backend::OptionSpec::Type::kInteger   ? "integer"
                     : option.type == backend::OptionSpec::Type::kBoolean ? "boolean"
                                                                          : "string";
  return {{"key", option.key}, {"type", type}, {"default", option.default_value}, {"doc", option.doc}};
}

json ToJson(const BackendInfo& backend, const DiscoveryRecord* record) {
  json devices = json::array();
  for (const backend::DeviceInfo& device : backend.devices) devices.push_back(ToJson(device));
  json options = json::array();
  for (const backend::OptionSpec& option : backend.options) options.push_back(ToJson(option));
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
          {"devices", std::move(devices)},
          {"options", std::move(options)},
          {"available", backend.available},
          {"unavailable_reason", backend.unavailable_reason},
          {"warnings", record != nullptr ? json(record->warnings) : json::array()}};
}

}  // namespace

std::string JsonReport(const Inventory& inventory) {
  json search_paths = json::array();
  for (const SearchPath& path : inventory.report.search_paths) search_paths.push_back(ToJson(path));

  json backends = json::array();
  for (std::size_t i = 0; i < inventory.backends.size(); ++i) {
    const std::optional<std::size_t> index = inventory.backend_record[i];
    backends.push_back(
        ToJson(inventory.backends[i], index ? &inventory.report.records[*index] : nullptr));
  }

  json records = json::array();
  for (const DiscoveryRecord& record : inventory.report.records) records.push_back(ToJson(record));

  const ExitCode exit_code = ExitCodeFor(inventory);
  const json document = {
      {"format", kJsonFormatVersion},
      {"kind", "discovery"},
      {"sdk_version", ToString(kSdkVersion)},
      {"backend_api_version", ToString(kBackendApiVersion)},
      {"platform", BACKPLANE_PLATFORM_TAG},
      {"abi", BACKPLANE_ABI_TAG},
      {"dynamic_loading_enabled", inventory.report.dynamic_loading_enabled},
      {"search_paths", std::move(search_paths)},
      {"trust", ToJson(inventory.trust)},
      {"backends", std::move(backends)},
      {"records", std::move(records)},
      {"summary",
       {{"backends", inventory.backends.size()},
        {"registered", inventory.CountVerdict(Verdict::kRegistered)},
        {"rejected", inventory.CountVerdict(Verdict::kRejected)},
        {"duplicate", inventory.CountVerdict(Verdict::kDuplicate)},
        {"superseded", inventory.CountVerdict(Verdict::kSuperseded)},
        {"filtered", inventory.CountVerdict(Verdict::kFiltered)}}},
      {"status", ToString(exit_code)},
      {"exit_code", static_cast<int>(exit_code)}};
  return document.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace backplane::sdk_info
