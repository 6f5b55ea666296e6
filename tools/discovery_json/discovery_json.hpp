// The JSON of the runtime's discovery values, as the tools' --json documents show them
// (docs/sdk-info.md documents the fields). Fields come in the documented order.
#pragma once

#include <backplane/discovery_report.hpp>
#include <backplane/trust.hpp>

#include <nlohmann/json.hpp>

namespace backplane::tools {

// {status, publisher, key_id, signature_path, trusted_key_path}
nlohmann::ordered_json ToJson(const SignatureInfo& signature);
// {policy, policy_source, system_config, key_folders[], keys[], problems[]}
nlohmann::ordered_json ToJson(const TrustSettings& trust);
// {manifest_path, library_path, found_by, stage, verdict, code, message, warnings, backend_id,
//  version, layer, signature}
nlohmann::ordered_json ToJson(const DiscoveryRecord& record);

}  // namespace backplane::tools
