// What backend discovery found, loaded and rejected, and why: one record per candidate.
//
// sdk-info prints these; applications read them from Runtime::GetDiscoveryReport() or from
// the NoBackendsError thrown when nothing could be registered.
#pragma once

#include <backplane/runtime_export.hpp>

#include <string>
#include <vector>

namespace backplane {

// How a candidate was found.
enum class FoundBy {
  kManifest,      // a <Vendor>_<Name>_backend.json manifest in a search folder
  kNamingScheme,  // a library with no manifest whose file name follows spec 001's scheme
  kStatic,        // linked into the runtime
};

// The stages every candidate goes through, in order. A rejected candidate's `stage` is the one
// whose check failed; a registered one's is kRegistered.
enum class DiscoveryStage {
  kFound,             // the file was listed (and, for a manifest, read)
  kManifestRead,      // the manifest file was read and parsed as JSON
  kManifestChecked,   // fields, format version, platform, ABI and library file checked
  kLibraryVerified,   // sha256 of the library checked (when the manifest gives one)
  kLibraryOpened,     // the library was opened
  kEntryPoints,       // the four entry points were found
  kIdentity,          // the identity/ABI descriptor was accepted
  kBackendChecked,    // id, API version and manifest cross-checks passed
  kRegistered,        // registered in this runtime
};

enum class Verdict {
  kRegistered,  // usable
  kRejected,    // not usable; `code` and `message` say why
  kDuplicate,   // the same library or backend id as an earlier candidate; skipped
  // (Added later: kept at the end so the values above keep their numbers.)
  kSuperseded,  // another candidate of the same backend id won (a higher version); never opened
  kFiltered,    // left out by the application's or the user's choice (select, disable, version
                // pin); never opened
};

// Stable reason codes (their ToString names appear in sdk-info --json).
enum class ReasonCode {
  kOk,
  kManifestUnreadable,        // cannot read the file
  kManifestInvalidJson,       // not JSON (the parser's message says where)
  kManifestFieldMissing,      // a required field is absent
  kManifestFieldInvalid,      // a field has the wrong type or an invalid value
  kManifestVersionUnsupported,// manifest format major version unknown
  kLibraryPathInvalid,        // "library" is absolute, has separators or ".."
  kLibraryMissing,            // the library file does not exist (or a dangling symlink)
  kPlatformMismatch,          // built for another OS/architecture
  kAbiMismatch,               // built with another C++ ABI
  kChecksumMismatch,          // sha256 differs from the manifest's
  kOpenFailed,                // the OS loader refused the file (not a library, missing deps)
  kEntryPointMissing,         // one of the four exports is absent
  kForeignLibrary,            // exports spec 001's functions but is not built for this SDK
  kBackendIdInvalid,          // GetBackendId returned null, "" or an ill-formed id
  kApiVersionIncompatible,    // Backend API version not compatible with the runtime's
  kManifestMismatch,          // id or version differ between library and manifest
  kDuplicateLibrary,          // same canonical file as an earlier candidate
  kDuplicateBackendId,        // a backend with this id is already registered
  kFactoryFailed,             // BackendFactory threw or returned null
  kLibraryRefused,            // RuntimeOptions::library_filter refused to have it opened
                              // (sdk-info --isolate: it crashed, hung or exited in a probe)
  // (Added later: kept at the end so the values above keep their numbers.)
  kLibraryInvalid,            // not a regular file, or its header says it cannot load here:
                              // truncated, not a shared library, another machine/class
  kEntryPointFailed,          // GetBackendId or GetVersion threw instead of returning
  kSuperseded,                // a higher (or equal, found earlier) version of the same id won
  kFilteredOut,               // not selected, disabled, or outside the pinned version range
  // Trust (docs/backend-discovery.md §8; each names the file and, where there is one, the key):
  kSignatureMissing,          // no <manifest>.sig (or no manifest at all) under policy require
  kSignatureInvalid,          // the signature file is malformed or does not verify over the
                              // manifest's bytes (edited after signing); under warn too
  kPublisherUntrusted,        // a valid signature by a key in no trust folder, under require
  kInsecurePermissions,       // the candidate's folder or a file of it is writable by other
                              // users (world-writable), under require
};

BACKPLANE_RUNTIME_API const char* ToString(FoundBy value);         // "manifest", "naming_scheme", "static"
BACKPLANE_RUNTIME_API const char* ToString(DiscoveryStage value);  // "found", "manifest_read", ...
BACKPLANE_RUNTIME_API const char* ToString(Verdict value);         // "registered", "rejected", "duplicate", ...
BACKPLANE_RUNTIME_API const char* ToString(ReasonCode value);      // "ok", "manifest_invalid_json", ...

// What discovery learned about a candidate's signature (docs/backend-discovery.md §8).
enum class SignatureStatus {
  kNotChecked,  // policy off, or a static backend (part of the runtime itself)
  kVerified,    // a valid signature by a key in a trust folder: `publisher` is that key's
  kUnsigned,    // no signature file, or no manifest (naming scheme); loaded under warn
  kUntrusted,   // a valid signature by a key in no trust folder; loaded under warn
  kInvalid,     // a signature that is malformed or does not verify; never loaded
};
BACKPLANE_RUNTIME_API const char* ToString(SignatureStatus value);  // "not_checked", "verified", ...

// A candidate's or a backend's signature. Value type.
struct SignatureInfo {
  SignatureStatus status = SignatureStatus::kNotChecked;
  // kVerified: the publisher of the trusted key; kUntrusted/kInvalid: the name the signature
  // claims (unverified); else "".
  std::string publisher;
  std::string key_id;          // the signing key's fingerprint (16 hex digits); "" when unsigned
  std::string signature_path;  // the <manifest>.sig file; "" when there is none
  std::string trusted_key_path;  // kVerified: the trust-folder file holding the key
};

struct DiscoveryRecord {
  std::string manifest_path;  // empty when found by naming scheme or static
  std::string library_path;   // empty when not known (manifest unreadable)
  FoundBy found_by = FoundBy::kManifest;
  DiscoveryStage stage = DiscoveryStage::kFound;
  Verdict verdict = Verdict::kRejected;
  ReasonCode code = ReasonCode::kOk;
  std::string message;                // names the file and both values where two disagree
  std::vector<std::string> warnings;  // accepted with reservations (newer manifest minor)
  std::string backend_id;             // when known
  std::string version;                // the plugin's version, when known (its manifest says)
  std::string layer;                  // the search layer it was found in (SearchPath::source),
                                      // "static" for a backend linked into the runtime
  SignatureInfo signature;            // set at stage manifest_checked (library_verified for a
                                      // naming-scheme library)
};

// A search folder (one layer of docs/backend-discovery.md §1) and whether it was used.
struct SearchPath {
  std::string path;
  // "option" (RuntimeOptions::backend_paths), "environment" (BACKPLANE_BACKEND_PATHS), "added"
  // (BACKPLANE_ADD_BACKEND_PATHS), "user" and "system" (the drop folders), "compiled-in",
  // "default" (the installation's own folder)
  std::string source;
  bool valid = false;
  std::string reason;  // why it was skipped
  // A drop folder (user, system) that does not exist yet: normal, nothing to warn about.
  bool normally_absent = false;
};

// One problem of a manifest (ValidateManifestFile reports all of them).
struct ManifestProblem {
  ReasonCode code = ReasonCode::kOk;
  std::string message;  // names the file and the field or values involved
};

// Value type; a snapshot taken when the runtime was created.
struct DiscoveryReport {
  bool dynamic_loading_enabled = true;
  std::vector<SearchPath> search_paths;
  std::vector<DiscoveryRecord> records;
};

}  // namespace backplane
