#include "discovery/trust_check.hpp"

#include "discovery/manifest.hpp"
#include "discovery/signature.hpp"
#include "loading/target_tags.hpp"
#include "platform/message_text.hpp"
#include "platform/permissions.hpp"

#include <backplane/folder_entries.hpp>
#include <backplane/path_text.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <system_error>

namespace backplane {

namespace fs = std::filesystem;

namespace discovery {

namespace {

// The policy's words for messages: "policy require (environment (BACKPLANE_TRUST_POLICY))".
std::string PolicyText(const TrustSettings& settings) {
  return std::string("policy ") + ToString(settings.policy) + " (" + settings.policy_source + ")";
}

// A named value that could not be used as a policy: the safe reading is require.
void UnknownPolicy(TrustSettings& settings, const std::string& where, const std::string& value) {
  settings.policy = TrustPolicy::kRequire;
  settings.policy_source = where;
  settings.problems.push_back(where + " gives trust policy " + platform::Quoted(value) +
                              ", which is not off, warn or require; using require");
}

// The system configuration's "trust_policy", when the file exists and says one.
void ReadSystemConfig(const std::string& file, TrustSettings& settings) {
  std::error_code error;
  const fs::path path = PathFromUtf8(file);
  if (file.empty() || !fs::exists(path, error)) return;
  const std::string where = "system config " + file;
  std::string why;
  const auto text = ReadSmallFile(path, kMaxTrustFileBytes, why);
  if (!text) {
    settings.policy = TrustPolicy::kRequire;
    settings.policy_source = where;
    settings.problems.push_back(file + " " + why + "; using trust policy require");
    return;
  }
  const nlohmann::json object = nlohmann::json::parse(*text, nullptr, /*allow_exceptions=*/false);
  if (object.is_discarded() || !object.is_object()) {
    settings.policy = TrustPolicy::kRequire;
    settings.policy_source = where;
    settings.problems.push_back(file + " is not a JSON object; using trust policy require");
    return;
  }
  const auto field = object.find("trust_policy");
  if (field == object.end()) return;
  const std::string value = field->is_string() ? field->get<std::string>() : field->dump();
  if (const auto policy = TrustPolicyFromString(value)) {
    settings.policy = *policy;
    settings.policy_source = where;
  } else {
    UnknownPolicy(settings, where, value);
  }
}

// What ReplaceableByOthersAt found for `path`: " is writable by other users", or where.
std::string ReplaceableText(const fs::path& path, const fs::path& at) {
  std::error_code error;
  const fs::path resolved = fs::canonical(path, error);
  if (error) return " cannot be resolved: " + error.message();
  const bool link = fs::is_symlink(fs::symlink_status(path, error));
  const std::string through = link ? " (a link to " + PathToUtf8(resolved) + ")" : "";
  if (at == resolved) return through + " is writable by other users";
  return through + " is under " + PathToUtf8(at) + ", which lets other users replace what it holds";
}

void ReadKeyFolder(const TrustFolder& folder, TrustSettings& settings) {
  std::error_code error;
  const fs::path path = PathFromUtf8(folder.path);
  if (folder.path.empty() || !fs::is_directory(path, error)) return;  // none yet: normal
  if (const fs::path at = platform::ReplaceableByOthersAt(path); !at.empty()) {
    settings.problems.push_back("trusted-key folder " + folder.path + ReplaceableText(path, at) +
                                "; none of its keys is trusted");
    return;
  }
  std::vector<fs::path> files;
  for (const fs::path& entry : FolderEntries(path, error)) {
    if (entry.extension() == ".json") files.push_back(entry);
  }
  std::sort(files.begin(), files.end());
  if (files.size() > kMaxKeysPerFolder) {
    settings.problems.push_back("trusted-key folder " + folder.path + " holds " + std::to_string(files.size()) +
                                " key files; only the first " + std::to_string(kMaxKeysPerFolder) + " are read");
    files.resize(kMaxKeysPerFolder);
  }
  for (const auto& file : files) {
    const std::string name = PathToUtf8(file);
    if (const fs::path at = platform::ReplaceableByOthersAt(file); !at.empty()) {
      settings.problems.push_back("key file " + name + ReplaceableText(file, at) + "; not trusted");
      continue;
    }
    std::string why;
    const auto text = ReadSmallFile(file, kMaxTrustFileBytes, why);
    auto key = text ? ParseKeyFile(*text, name, why) : std::nullopt;
    if (!key) {
      settings.problems.push_back("key file " + name + (text ? ": " : " ") + why + "; not used");
      continue;
    }
    key->source = folder.source;
    settings.keys.push_back(std::move(*key));
  }
}

// The files of a candidate that others must not be able to change, each with its name.
std::string InsecureFiles(const std::vector<fs::path>& files) {
  std::string list;
  for (const auto& file : files) {
    if (file.empty() || !platform::IsWritableByOthers(file)) continue;
    list += (list.empty() ? "" : ", ") + PathToUtf8(file);
  }
  return list;
}

// Applies the permissions part of the rule to `check`.
void CheckPermissions(const std::vector<fs::path>& files, const TrustSettings& settings, TrustCheck& check) {
  const std::string insecure = InsecureFiles(files);
  if (insecure.empty()) return;
  const std::string message = insecure + " writable by other users, who could replace what was checked";
  if (settings.policy == TrustPolicy::kRequire) {
    if (!check.rejection) {
      check.rejection = ManifestProblem{ReasonCode::kInsecurePermissions, message + "; refused under " + PolicyText(settings)};
    }
  } else {
    check.warnings.push_back(message);
  }
}

std::string KeyFolderList(const TrustSettings& settings) {
  std::string list;
  for (const auto& folder : settings.key_folders) list += (list.empty() ? "" : ", ") + folder.path;
  return list.empty() ? "none" : list;
}

}  // namespace

TrustSettings ResolveTrust(const TrustSources& sources) {
  TrustSettings settings;
  settings.system_config = sources.system_config;
  settings.policy = TrustPolicy::kWarn;
  settings.policy_source = "default";
  if (sources.option) {
    settings.policy = *sources.option;
    settings.policy_source = "option";
  } else if (sources.environment) {
    const std::string where = std::string("environment (") + kTrustPolicyEnvVar + ")";
    if (const auto policy = TrustPolicyFromString(*sources.environment)) {
      settings.policy = *policy;
      settings.policy_source = where;
    } else {
      UnknownPolicy(settings, where, *sources.environment);
    }
  } else {
    ReadSystemConfig(sources.system_config, settings);
  }

  if (!sources.option_folders.empty()) {
    for (const auto& folder : sources.option_folders) settings.key_folders.push_back({folder, kKeySourceOption});
  } else {
    if (!sources.user_folder.empty()) settings.key_folders.push_back({sources.user_folder, kKeySourceUser});
    if (!sources.system_folder.empty()) settings.key_folders.push_back({sources.system_folder, kKeySourceSystem});
    if (!sources.installation_folder.empty()) {
      settings.key_folders.push_back({sources.installation_folder, kKeySourceInstallation});
    }
  }
  // Reading keys costs nothing worth saving under policy off, and sdk-info shows them anyway.
  for (const auto& folder : settings.key_folders) ReadKeyFolder(folder, settings);
  return settings;
}

TrustCheck CheckManifestCandidate(const fs::path& manifest, const std::string& manifest_text,
                                  const ManifestCheck& manifest_check, const TrustSettings& settings) {
  TrustCheck check;
  if (settings.policy == TrustPolicy::kOff) return check;
  fs::path signature_path = manifest;
  signature_path += kSignatureSuffix;
  const std::string manifest_name = PathToUtf8(manifest);
  const std::string signature_name = PathToUtf8(signature_path);
  SignatureInfo& info = check.signature;
  const bool require = settings.policy == TrustPolicy::kRequire;

  std::error_code error;
  const bool has_signature = fs::exists(fs::symlink_status(signature_path, error));
  if (!has_signature) {
    info.status = SignatureStatus::kUnsigned;
    if (require) {
      check.rejection = ManifestProblem{ReasonCode::kSignatureMissing,
                                        manifest_name + " has no signature (" + PathToUtf8(signature_path.filename()) +
                                            "); " + PolicyText(settings) + " loads only signed drops"};
    }
  } else {
    info.signature_path = signature_name;
    std::string why;
    const auto text = ReadSmallFile(signature_path, kMaxTrustFileBytes, why);
    const auto signature = text ? ParseSignatureFile(*text, why) : std::nullopt;
    if (!signature) {
      info.status = SignatureStatus::kInvalid;
      check.rejection = ManifestProblem{ReasonCode::kSignatureInvalid,
                                        "signature " + signature_name + (text ? " is malformed: " : " ") + why};
    } else {
      info.key_id = signature->key_id;
      info.publisher = signature->publisher;
      const std::string by = "key " + signature->key_id + " (claims publisher " + platform::Quoted(signature->publisher) + ")";
      if (!VerifyEd25519(signature->raw_public_key, manifest_text, signature->raw_signature)) {
        info.status = SignatureStatus::kInvalid;
        check.rejection = ManifestProblem{
            ReasonCode::kSignatureInvalid,
            "signature " + signature_name + " by " + by + " does not verify over " + manifest_name +
                ": the manifest was changed after it was signed, or the signature is of another file"};
      } else if (!manifest_check.sha256) {
        info.status = SignatureStatus::kInvalid;
        check.rejection = ManifestProblem{ReasonCode::kSignatureInvalid,
                                          manifest_name + " is signed by " + by +
                                              " but gives no \"sha256\", so the signature does not cover its library"};
      } else {
        const auto trusted = std::find_if(settings.keys.begin(), settings.keys.end(), [&](const TrustedKey& key) {
          return key.key_id == signature->key_id && Base64Decode(key.public_key) == signature->raw_public_key;
        });
        if (trusted != settings.keys.end()) {
          info.status = SignatureStatus::kVerified;
          info.publisher = trusted->publisher;
          info.trusted_key_path = trusted->file;
        } else {
          info.status = SignatureStatus::kUntrusted;
          if (require) {
            check.rejection = ManifestProblem{
                ReasonCode::kPublisherUntrusted,
                manifest_name + " is signed by " + by + ", which is in no trust folder (" + KeyFolderList(settings) +
                    "); " + PolicyText(settings) + " loads only drops of trusted publishers (sdk-plugin keys add)"};
          }
        }
      }
    }
  }
  std::vector<fs::path> files{manifest.parent_path(), manifest, manifest_check.library_path.value_or(fs::path())};
  if (has_signature) files.push_back(signature_path);
  CheckPermissions(files, settings, check);
  return check;
}

TrustCheck CheckUnsignedLibrary(const fs::path& library, const TrustSettings& settings) {
  TrustCheck check;
  if (settings.policy == TrustPolicy::kOff) return check;
  check.signature.status = SignatureStatus::kUnsigned;
  if (settings.policy == TrustPolicy::kRequire) {
    check.rejection = ManifestProblem{ReasonCode::kSignatureMissing,
                                      PathToUtf8(library) + " has no manifest, so nothing about it is signed; " +
                                          PolicyText(settings) + " loads only signed drops"};
  }
  CheckPermissions({library.parent_path(), library}, settings, check);
  return check;
}

}  // namespace discovery

TrustCheck CheckManifestTrust(const std::string& manifest, const TrustSettings& settings) {
  std::string text;
  const fs::path file = PathFromUtf8(manifest);
  const discovery::ManifestCheck manifest_check =
      discovery::CheckManifestFile(file, loading::RuntimeTargetTags(), &text);
  if (manifest_check.stage == DiscoveryStage::kFound && !manifest_check.problems.empty()) {
    TrustCheck check;  // unreadable: nothing to verify
    check.rejection = manifest_check.problems.front();
    return check;
  }
  return discovery::CheckManifestCandidate(file, text, manifest_check, settings);
}

}  // namespace backplane
