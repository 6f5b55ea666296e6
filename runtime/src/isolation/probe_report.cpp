#include "isolation/probe_report.hpp"

#include <backplane/path_text.hpp>

#include <nlohmann/json.hpp>

namespace backplane::isolation {

using nlohmann::json;

namespace {
constexpr const char* kKind = "backplane-plugin-probe";
constexpr const char* kPolicyFlag = "--trust-policy";
constexpr const char* kKeysFlag = "--trusted-keys";
}  // namespace

std::vector<std::string> ProbeArguments(const ProbeRequest& request) {
  std::vector<std::string> arguments = {kPolicyFlag, ToString(request.policy)};
  for (const std::string& folder : request.key_folders) {
    arguments.push_back(kKeysFlag);
    arguments.push_back(folder);
  }
  arguments.push_back(request.library);
  return arguments;
}

std::optional<ProbeRequest> ParseProbeArguments(const std::vector<std::string>& arguments, std::string& error) {
  ProbeRequest request;
  std::size_t at = 0;
  for (; at + 1 < arguments.size(); at += 2) {
    const std::string& flag = arguments[at];
    const std::string& value = arguments[at + 1];
    if (flag == kPolicyFlag) {
      const std::optional<TrustPolicy> policy = TrustPolicyFromString(value);
      if (!policy) {
        error = std::string(kPolicyFlag) + " '" + value + "' is not off, warn or require";
        return std::nullopt;
      }
      request.policy = *policy;
    } else if (flag == kKeysFlag && !value.empty()) {
      request.key_folders.push_back(value);
    } else {
      error = "unexpected argument '" + flag + "'";
      return std::nullopt;
    }
  }
  if (at + 1 != arguments.size() || arguments[at].empty() || !PathFromUtf8(arguments[at]).is_absolute()) {
    error = "the last argument must be the library, as an absolute path";
    return std::nullopt;
  }
  request.library = arguments[at];
  return request;
}

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
