#include "discovery_json.hpp"

namespace backplane::tools {

using json = nlohmann::ordered_json;

json ToJson(const SignatureInfo& signature) {
  return {{"status", ToString(signature.status)},
          {"publisher", signature.publisher},
          {"key_id", signature.key_id},
          {"signature_path", signature.signature_path},
          {"trusted_key_path", signature.trusted_key_path}};
}

json ToJson(const TrustSettings& trust) {
  json folders = json::array();
  for (const TrustFolder& folder : trust.key_folders) folders.push_back({{"path", folder.path}, {"source", folder.source}});
  json keys = json::array();
  for (const TrustedKey& key : trust.keys) {
    keys.push_back({{"publisher", key.publisher}, {"key_id", key.key_id}, {"file", key.file}, {"source", key.source}});
  }
  return {{"policy", ToString(trust.policy)},
          {"policy_source", trust.policy_source},
          {"system_config", trust.system_config},
          {"key_folders", std::move(folders)},
          {"keys", std::move(keys)},
          {"problems", trust.problems}};
}

json ToJson(const DiscoveryRecord& record) {
  return {{"manifest_path", record.manifest_path},
          {"library_path", record.library_path},
          {"found_by", ToString(record.found_by)},
          {"stage", ToString(record.stage)},
          {"verdict", ToString(record.verdict)},
          {"code", ToString(record.code)},
          {"message", record.message},
          {"warnings", record.warnings},
          {"backend_id", record.backend_id},
          {"version", record.version},
          {"layer", record.layer},
          {"signature", ToJson(record.signature)}};
}

}  // namespace backplane::tools
