// What a drop is made of: exactly one manifest <Vendor>_<Name>_backend.json, the library it
// names, optionally the manifest's signature <manifest>.sig and the library's symbols
// <library>.debug. Other files in a drop are ignored (not installed).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace backplane::sdk_plugin {

// True for "<Vendor>_<Name>_backend.json" with vendor and name [A-Za-z0-9]+ (the rule discovery
// uses for manifest candidates, docs/backend-discovery.md §2).
bool IsManifestFileName(std::string_view name);

// The one manifest among `file_names` (plain names, as listed in the drop `drop`). Throws
// ToolError (kRejected) when there is none or more than one, naming the drop and what it holds.
std::string FindTheManifest(const std::vector<std::string>& file_names, const std::string& drop);

// "<manifest>.sig" and "<library>.debug".
std::string SignatureFileName(const std::string& manifest);
std::string DebugFileName(const std::string& library);

// The folder an installed drop lives in: "<manifest stem>-<version>"
// (Acme_Fast_backend.json, 1.2.0 -> Acme_Fast_backend-1.2.0). Throws ToolError (kRejected) when
// the version could not be a folder name (empty, a separator, a leading '.').
std::string InstalledFolderName(const std::string& manifest, const std::string& version);

// A file of a drop to install, and the mode it gets: 0755 for the library, 0644 for the others.
struct DropFile {
  std::string name;
  bool executable = false;
};
// The files to install for `manifest` naming `library`, in that order: manifest, signature,
// library, debug file.
std::vector<DropFile> DropFilesFor(const std::string& manifest, const std::string& library);

// What a manifest file says, read leniently: for display, and to know which library file a drop
// holds before the runtime has checked anything (ValidateManifestFile gives id, version and
// library only for a manifest without problems). Whether the manifest is valid is the runtime's
// to say. Each field is "" when the file cannot be read (or is over 1 MiB), is not a JSON object,
// or lacks that field as a string. Never throws but std::bad_alloc.
struct ManifestFields {
  std::string id;
  std::string vendor;
  std::string version;
  std::string library;  // as written: not checked to be a plain file name
};
ManifestFields ReadManifestFields(const std::string& manifest_file);

}  // namespace backplane::sdk_plugin
