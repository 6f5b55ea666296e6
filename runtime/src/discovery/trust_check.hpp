// The trust rule (docs/backend-discovery.md §8), owned here: which policy is in force, which
// keys are trusted, and what a candidate's signature and permissions mean under the policy.
// Discovery (discovery.cpp) and the public CheckManifestTrust both ask this file.
#pragma once

#include "discovery/manifest.hpp"

#include <backplane/discovery_report.hpp>
#include <backplane/trust.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace backplane::discovery {

// Sources of the key folders (TrustFolder::source).
inline constexpr const char* kKeySourceOption = "option";
inline constexpr const char* kKeySourceUser = "user";
inline constexpr const char* kKeySourceSystem = "system";
inline constexpr const char* kKeySourceInstallation = "installation";

// At most this many key files are read per folder.
inline constexpr std::size_t kMaxKeysPerFolder = 1000;

// The inputs of the trust settings, gathered by the runtime so this stays a pure function of
// them and of the files they name.
struct TrustSources {
  std::optional<TrustPolicy> option;         // TrustOptions::policy
  std::optional<std::string> environment;    // BACKPLANE_TRUST_POLICY, as read (secure getenv)
  std::string system_config;                 // the configuration file (may not exist)
  std::vector<std::string> option_folders;   // TrustOptions::key_folders
  std::string user_folder;                   // "" when unknown (set-uid)
  std::string system_folder;
  std::string installation_folder;           // "" when libbackplane's folder is unknown
};

// The policy (option, else environment, else the system configuration's "trust_policy", else
// warn; an unknown value in the environment or configuration means require, with a problem)
// and the usable keys of the folders (option folders alone when given, else user, system,
// installation). A key file or folder that other users could replace (resolved, and the folders
// above it: platform::ReplaceableByOthersAt) is not used (a problem).
// Never throws but std::bad_alloc.
TrustSettings ResolveTrust(const TrustSources& sources);

// The rule for one manifest candidate whose bytes `manifest_text` were read from `manifest`
// and checked as `manifest_check` (the bytes verified are the bytes parsed): its signature
// <manifest>.sig against `settings` (a signed manifest must give a sha256, so that the signature
// covers the library), and the permissions of its folder, manifest, signature and library.
// Never throws but std::bad_alloc.
TrustCheck CheckManifestCandidate(const std::filesystem::path& manifest, const std::string& manifest_text,
                                  const ManifestCheck& manifest_check, const TrustSettings& settings);

// The rule for a library found by the naming scheme (no manifest, so nothing signed).
TrustCheck CheckUnsignedLibrary(const std::filesystem::path& library, const TrustSettings& settings);

}  // namespace backplane::discovery
