#include <backplane/discovery_report.hpp>

namespace backplane {

const char* ToString(FoundBy value) {
  switch (value) {
    case FoundBy::kManifest: return "manifest";
    case FoundBy::kNamingScheme: return "naming_scheme";
    case FoundBy::kStatic: return "static";
  }
  return "unknown";
}

const char* ToString(DiscoveryStage value) {
  switch (value) {
    case DiscoveryStage::kFound: return "found";
    case DiscoveryStage::kManifestRead: return "manifest_read";
    case DiscoveryStage::kManifestChecked: return "manifest_checked";
    case DiscoveryStage::kLibraryVerified: return "library_verified";
    case DiscoveryStage::kLibraryOpened: return "library_opened";
    case DiscoveryStage::kEntryPoints: return "entry_points";
    case DiscoveryStage::kIdentity: return "identity";
    case DiscoveryStage::kBackendChecked: return "backend_checked";
    case DiscoveryStage::kRegistered: return "registered";
  }
  return "unknown";
}

const char* ToString(Verdict value) {
  switch (value) {
    case Verdict::kRegistered: return "registered";
    case Verdict::kRejected: return "rejected";
    case Verdict::kDuplicate: return "duplicate";
    case Verdict::kSuperseded: return "superseded";
    case Verdict::kFiltered: return "filtered";
  }
  return "unknown";
}

const char* ToString(ReasonCode value) {
  switch (value) {
    case ReasonCode::kOk: return "ok";
    case ReasonCode::kManifestUnreadable: return "manifest_unreadable";
    case ReasonCode::kManifestInvalidJson: return "manifest_invalid_json";
    case ReasonCode::kManifestFieldMissing: return "manifest_field_missing";
    case ReasonCode::kManifestFieldInvalid: return "manifest_field_invalid";
    case ReasonCode::kManifestVersionUnsupported: return "manifest_version_unsupported";
    case ReasonCode::kLibraryPathInvalid: return "library_path_invalid";
    case ReasonCode::kLibraryMissing: return "library_missing";
    case ReasonCode::kPlatformMismatch: return "platform_mismatch";
    case ReasonCode::kAbiMismatch: return "abi_mismatch";
    case ReasonCode::kChecksumMismatch: return "checksum_mismatch";
    case ReasonCode::kOpenFailed: return "open_failed";
    case ReasonCode::kEntryPointMissing: return "entry_point_missing";
    case ReasonCode::kForeignLibrary: return "foreign_library";
    case ReasonCode::kBackendIdInvalid: return "backend_id_invalid";
    case ReasonCode::kApiVersionIncompatible: return "api_version_incompatible";
    case ReasonCode::kManifestMismatch: return "manifest_mismatch";
    case ReasonCode::kDuplicateLibrary: return "duplicate_library";
    case ReasonCode::kDuplicateBackendId: return "duplicate_backend_id";
    case ReasonCode::kFactoryFailed: return "factory_failed";
    case ReasonCode::kLibraryRefused: return "library_refused";
    case ReasonCode::kLibraryInvalid: return "library_invalid";
    case ReasonCode::kEntryPointFailed: return "entry_point_failed";
    case ReasonCode::kSuperseded: return "superseded";
    case ReasonCode::kFilteredOut: return "filtered_out";
    case ReasonCode::kSignatureMissing: return "signature_missing";
    case ReasonCode::kSignatureInvalid: return "signature_invalid";
    case ReasonCode::kPublisherUntrusted: return "publisher_untrusted";
    case ReasonCode::kInsecurePermissions: return "insecure_permissions";
  }
  return "unknown";
}

const char* ToString(SignatureStatus value) {
  switch (value) {
    case SignatureStatus::kNotChecked: return "not_checked";
    case SignatureStatus::kVerified: return "verified";
    case SignatureStatus::kUnsigned: return "unsigned";
    case SignatureStatus::kUntrusted: return "untrusted";
    case SignatureStatus::kInvalid: return "invalid";
  }
  return "unknown";
}

}  // namespace backplane
