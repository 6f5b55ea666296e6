// Trust in backend drops: detached Ed25519 signatures over manifests, folders of trusted
// publisher keys, and the policy discovery applies (docs/backend-discovery.md §8).
//
// A signature covers the exact bytes of a manifest; the manifest carries its library's sha256,
// so one signature covers both. Signing and key files are for vendors and tools (sdk-plugin,
// backplane_add_backend(... SIGN_KEY)); discovery does the verifying.
#pragma once

#include <backplane/discovery_report.hpp>
#include <backplane/runtime_export.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace backplane {

// How discovery treats signatures.
enum class TrustPolicy {
  kOff,      // nothing is checked; every SignatureInfo is kNotChecked
  kWarn,     // unsigned and untrusted candidates load, marked; an invalid signature is rejected
  kRequire,  // only candidates with a valid signature by a trusted key load; the others are
             // rejected before their library is opened (naming-scheme libraries too)
};
BACKPLANE_RUNTIME_API const char* ToString(TrustPolicy value);  // "off", "warn", "require"
// "off", "warn" or "require"; nullopt for anything else.
BACKPLANE_RUNTIME_API std::optional<TrustPolicy> TrustPolicyFromString(std::string_view text);

// Environment variable with the policy ("off", "warn", "require"). Read with a secure getenv:
// ignored in set-uid or elevated processes.
inline constexpr const char* kTrustPolicyEnvVar = "BACKPLANE_TRUST_POLICY";

// A manifest's detached signature is the file <manifest file name><kSignatureSuffix>, beside it
// (Acme_Fast_backend.json.sig).
inline constexpr const char* kSignatureSuffix = ".sig";

// The application's trust choices (RuntimeOptions::trust). Value type.
struct TrustOptions {
  // nullopt: kTrustPolicyEnvVar when set, else the system configuration file's "trust_policy",
  // else kWarn.
  std::optional<TrustPolicy> policy;
  // Folders of trusted keys (*.json, TrustedKeyFileText's format). Non-empty: replaces the
  // default ones (user, system, installation).
  std::vector<std::string> key_folders;
  // The system configuration file; "": <sysconfdir>/backplane/runtime.json as configured
  // (BACKPLANE_SYSTEM_CONFIG_DIR), %ProgramData%\Backplane\runtime.json on Windows.
  std::string system_config;
};

// A trusted publisher key. Value type.
struct TrustedKey {
  std::string publisher;   // who the key belongs to, as the trust-folder file says
  std::string key_id;      // fingerprint: the first 16 hex digits of SHA-256(raw public key)
  std::string public_key;  // base64 of the 32 raw Ed25519 public-key bytes
  std::string file;        // the file it was read from; "" when not read from a file
  std::string source;      // the folder's source: "option", "user", "system", "installation"
};

// A folder of trusted keys and where it comes from.
struct TrustFolder {
  std::string path;
  // "option" (TrustOptions::key_folders), "user" ($XDG_CONFIG_HOME/backplane/trusted-keys,
  // default ~/.config/...; %LOCALAPPDATA%\Backplane\trusted-keys), "system"
  // (<sysconfdir>/backplane/trusted-keys; %ProgramData%\Backplane\trusted-keys), "installation"
  // (<libdir>/backplane/trusted-keys beside libbackplane: the SDK's own build key)
  std::string source;
};

// The effective trust settings for some TrustOptions on this machine. Value type.
struct TrustSettings {
  TrustPolicy policy = TrustPolicy::kWarn;
  // Where the policy came from: "option", "environment (BACKPLANE_TRUST_POLICY)",
  // "system config <file>", "default".
  std::string policy_source;
  std::string system_config;             // the configuration file consulted (it may not exist)
  std::vector<TrustFolder> key_folders;  // in order; they need not exist
  std::vector<TrustedKey> keys;          // every usable key in key_folders, in folder order
  // Key files or folders that were not used, each naming the file and why (unreadable, not a
  // key file, writable by other users); also a system configuration file that is invalid (its
  // policy is then kRequire: a broken configuration never weakens trust).
  std::vector<std::string> problems;
};

// Resolves the policy and reads the trusted keys (at most 1000 key files of 64 KiB per folder).
// Thread-safe; never throws but std::bad_alloc.
BACKPLANE_RUNTIME_API TrustSettings ResolveTrustSettings(const TrustOptions& options = {});

// A new signing key pair for vendors. Value type; keep private_key_pem secret.
struct SigningKey {
  // PKCS#8 PEM ("-----BEGIN PRIVATE KEY-----"); `openssl genpkey -algorithm ed25519` makes keys
  // of the same form, which SignManifestFile accepts too.
  std::string private_key_pem;
  TrustedKey public_key;  // publisher, key_id, public_key (file and source empty)
};
// Throws Exception (kInvalidArgument) for a publisher that is empty, longer than 200 bytes or
// holds control characters; (kInternal) when OpenSSL fails. Thread-safe.
BACKPLANE_RUNTIME_API SigningKey GenerateSigningKey(const std::string& publisher);

// The public key of a PEM private key file (what `keygen` pairs with it), under `publisher`.
// Throws Exception (kNotFound / kInvalidArgument) naming the file: unreadable, not an Ed25519
// private key. Thread-safe.
BACKPLANE_RUNTIME_API TrustedKey PublicKeyOf(const std::string& private_key_file, const std::string& publisher);

// The text of a trusted-key file for `key` (JSON: key_format "1.0", publisher, algorithm
// "ed25519", public_key, key_id).
BACKPLANE_RUNTIME_API std::string TrustedKeyFileText(const TrustedKey& key);

// Reads a trusted-key file. Throws Exception (kNotFound when unreadable, kInvalidArgument when
// malformed) naming the file and the field. Thread-safe.
BACKPLANE_RUNTIME_API TrustedKey ReadTrustedKeyFile(const std::string& path);

// Signs the exact bytes of the manifest file `manifest` with the PEM private key file
// `private_key` and writes <manifest>.sig (replacing one that is there; written to a temporary
// name, then renamed). The signature claims `publisher` ("": the manifest's vendor). Returns
// what discovery would report before trust is decided (status kUntrusted: the key is not known
// to be trusted here). Throws Exception naming the file: the manifest unreadable or without a
// "sha256" (kInvalidArgument: a signature must cover the library too), the key unreadable or
// not Ed25519, the signature not writable. Thread-safe for different manifests.
BACKPLANE_RUNTIME_API SignatureInfo SignManifestFile(const std::string& manifest, const std::string& private_key,
                                                     const std::string& publisher = "");

// What discovery decides for one manifest under `settings`: its SignatureInfo, and the rejection
// (a ManifestProblem with kSignatureMissing, kSignatureInvalid, kPublisherUntrusted or
// kInsecurePermissions) when the policy refuses it. Warnings (policy warn: unsigned, untrusted
// publisher, insecure permissions) go to `warnings`. Reads the manifest and signature once each;
// never opens the library. Thread-safe; never throws but std::bad_alloc.
struct TrustCheck {
  SignatureInfo signature;
  std::optional<ManifestProblem> rejection;
  std::vector<std::string> warnings;
};
BACKPLANE_RUNTIME_API TrustCheck CheckManifestTrust(const std::string& manifest, const TrustSettings& settings);

}  // namespace backplane
