// Reading and checking a backend manifest (format 1.x, manifests/backend-manifest.schema.json)
// before its library is opened.
#pragma once

#include <backplane/backend/capabilities.hpp>
#include <backplane/discovery_report.hpp>
#include <backplane/plugin.hpp>
#include <backplane/version.hpp>

#include "loading/target_tags.hpp"
#include "platform/regular_file.hpp"

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace backplane::discovery {

// Limits on a manifest (docs/backend-discovery.md §5): a larger file is not read
// (manifest_unreadable); deeper JSON is not parsed (manifest_invalid_json).
inline constexpr std::uint64_t kMaxManifestBytes = 1 << 20;  // 1 MiB
inline constexpr int kMaxManifestDepth = 64;                 // nested arrays/objects
// The longest file name the "library" field may give (NAME_MAX on Linux and macOS).
inline constexpr std::size_t kMaxFileNameBytes = 255;

// The manifest format this runtime implements.
inline constexpr std::uint32_t kManifestFormatMajor = 1;
inline constexpr std::uint32_t kManifestFormatMinor = 0;

struct Manifest {
  std::filesystem::path file;     // the manifest itself
  std::string id;
  std::string vendor;
  std::string version;            // plugin semver
  BackendApiVersion api_version;
  std::string library;            // file name, as written
  std::filesystem::path library_path;  // the manifest's folder / library
  std::string platform;
  std::string abi;
  std::optional<std::string> sha256;   // lower-case hex
  std::string description;
  backend::BackendCapabilities capabilities;
};

// The outcome of checking one manifest file. `problems` lists every problem found, first the
// one that decides the record's code; `manifest` is set only when there is none.
struct ManifestCheck {
  std::optional<Manifest> manifest;
  std::vector<ManifestProblem> problems;
  std::vector<std::string> warnings;
  DiscoveryStage stage = DiscoveryStage::kFound;  // stage of the first problem
  // The "library" field as written, when it is a plain file name (even if the manifest is
  // rejected), so the naming-scheme fallback can leave that library alone.
  std::optional<std::string> claimed_library;
  // The library file and the sha256 the manifest gives for it, whenever both are well-formed
  // (even if other fields are not), so a checksum problem can be reported alongside others.
  std::optional<std::filesystem::path> library_path;
  std::optional<std::string> sha256;
};

// Reads and checks `file`: a regular file (checked on the opened handle; a FIFO or device is
// never read from) of at most kMaxManifestBytes, one JSON document (depth at most
// kMaxManifestDepth, no key twice in an object, nothing after it), format version, fields,
// library file name and existence (a symlink must stay in the manifest's folder), Backend API
// version (loading/api_version.hpp; checked before the library and the tags, so a plugin of
// another API is told so first), platform and ABI against `target`. Does not hash or open the library. Every failure becomes a problem;
// throws nothing but std::bad_alloc. Messages quote manifest values bounded (platform/message_text.hpp).
// Thread-safe.
// `bytes`, when given, receives the bytes that were read and checked (discovery verifies the
// manifest's signature over exactly these).
ManifestCheck CheckManifestFile(const std::filesystem::path& file, const loading::TargetTags& target,
                                std::string* bytes = nullptr);

// The same for text already read (`file` names it in messages and gives the folder).
ManifestCheck CheckManifestText(const std::filesystem::path& file, const std::string& text,
                                const loading::TargetTags& target);

// Whether `manifest` describes the library it names as opened and checked: id (`backend_id`,
// from GetBackendId), Backend API version (`api_version`, from GetVersion), plugin version and
// vendor (from `identity`). Returns "" when all match, else one "<field> is "x" in the manifest
// but "y" in the library" per mismatch, joined by "; " (values quoted bounded). Never throws
// except std::bad_alloc.
std::string ManifestMismatches(const Manifest& manifest, const std::string& backend_id,
                               BackendApiVersion api_version, const BackplanePluginIdentity& identity);

// Opens the library file `library` for checking (platform::RegularFile: only a regular file,
// checked on the handle). Returns nullopt and sets `opened`, or the problem: kLibraryMissing
// (nothing there, a dangling symlink or loop, or the OS refused to open it) or kLibraryInvalid
// (a folder, FIFO, device or socket). Never throws except std::bad_alloc.
std::optional<ManifestProblem> OpenLibraryFile(const std::filesystem::path& library,
                                               std::optional<platform::RegularFile>& opened);

// Compares the SHA-256 of `library` with `expected` (lower-case hex) from `manifest_file`.
// Returns the problem (kChecksumMismatch, or what OpenLibraryFile gives when it cannot be
// opened, or kLibraryMissing when it cannot be read), else nullopt. Never throws except
// std::bad_alloc.
std::optional<ManifestProblem> CheckLibraryChecksum(const std::filesystem::path& library,
                                                    const std::string& expected,
                                                    const std::filesystem::path& manifest_file);
// The same on an already opened `file` whose name is `library`.
std::optional<ManifestProblem> CheckLibraryChecksum(const platform::RegularFile& file,
                                                    const std::filesystem::path& library,
                                                    const std::string& expected,
                                                    const std::filesystem::path& manifest_file);

}  // namespace backplane::discovery
