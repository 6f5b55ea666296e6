#include "drop_contents.hpp"

#include "exit_code.hpp"

#include <backplane/path_text.hpp>
#include <backplane/trust.hpp>

#include <nlohmann/json.hpp>

#include <fstream>
#include <iterator>

namespace backplane::sdk_plugin {

namespace {

constexpr std::string_view kManifestSuffix = "_backend.json";

bool IsAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'); }

std::string Listed(const std::vector<std::string>& names) {
  std::string text;
  for (const std::string& name : names) text += (text.empty() ? "" : ", ") + name;
  return text;
}

}  // namespace

bool IsManifestFileName(std::string_view name) {
  if (name.size() <= kManifestSuffix.size() ||
      name.substr(name.size() - kManifestSuffix.size()) != kManifestSuffix) {
    return false;
  }
  const std::string_view stem = name.substr(0, name.size() - kManifestSuffix.size());
  const std::size_t underscore = stem.find('_');
  if (underscore == std::string_view::npos || underscore == 0 || underscore + 1 == stem.size()) return false;
  for (std::size_t i = 0; i < stem.size(); ++i) {
    if (i != underscore && !IsAlnum(stem[i])) return false;
  }
  return true;
}

std::string FindTheManifest(const std::vector<std::string>& file_names, const std::string& drop) {
  std::vector<std::string> manifests;
  for (const std::string& name : file_names) {
    if (IsManifestFileName(name)) manifests.push_back(name);
  }
  if (manifests.size() == 1) return manifests.front();
  if (manifests.empty()) {
    throw ToolError(ExitCode::kRejected,
                    drop + " holds no backend manifest (<Vendor>_<Name>_backend.json); " +
                        (file_names.empty() ? std::string("it holds no file") : "it holds: " + Listed(file_names)));
  }
  throw ToolError(ExitCode::kRejected, drop + " holds " + std::to_string(manifests.size()) +
                                           " backend manifests (" + Listed(manifests) +
                                           "); a drop holds exactly one backend");
}

std::string SignatureFileName(const std::string& manifest) { return manifest + kSignatureSuffix; }

std::string DebugFileName(const std::string& library) { return library + ".debug"; }

std::string InstalledFolderName(const std::string& manifest, const std::string& version) {
  const bool bad = version.empty() || version.front() == '.' ||
                   version.find_first_of("/\\:") != std::string::npos || version.size() > 200;
  if (bad) {
    throw ToolError(ExitCode::kRejected, manifest + ": the version '" + version + "' cannot name a folder");
  }
  std::string stem = manifest;
  if (stem.size() > 5 && stem.compare(stem.size() - 5, 5, ".json") == 0) stem.resize(stem.size() - 5);
  return stem + "-" + version;
}

std::vector<DropFile> DropFilesFor(const std::string& manifest, const std::string& library) {
  return {{manifest, false}, {SignatureFileName(manifest), false}, {library, true}, {DebugFileName(library), false}};
}

ManifestFields ReadManifestFields(const std::string& manifest_file) {
  constexpr std::size_t kMaxBytes = 1 << 20;
  ManifestFields fields;
  std::ifstream in(PathFromUtf8(manifest_file), std::ios::binary);
  if (!in) return fields;
  std::string text;
  char buffer[4096];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxBytes) return fields;
  }
  const nlohmann::json manifest = nlohmann::json::parse(text, nullptr, false);
  if (!manifest.is_object()) return fields;
  const auto field = [&](const char* name) {
    const auto value = manifest.find(name);
    return value != manifest.end() && value->is_string() ? value->get<std::string>() : std::string();
  };
  fields.id = field("id");
  fields.vendor = field("vendor");
  fields.version = field("version");
  fields.library = field("library");
  return fields;
}

}  // namespace backplane::sdk_plugin
