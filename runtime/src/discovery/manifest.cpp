#include "discovery/manifest.hpp"

#include "discovery/sha256.hpp"

#include <backplane/backend_id.hpp>
#include <backplane/plugin.hpp>

#include <nlohmann/json.hpp>

#include <fstream>
#include <functional>
#include <system_error>

namespace backplane::discovery {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

bool IsDigits(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// Semver 2.0 core plus optional -prerelease and +build of [0-9A-Za-z.-].
bool IsSemver(const std::string& text) {
  const auto end_core = text.find_first_of("-+");
  const std::string core = text.substr(0, end_core);
  std::size_t begin = 0;
  for (int part = 0; part < 3; ++part) {
    const auto dot = core.find('.', begin);
    const bool last = part == 2;
    if (last != (dot == std::string::npos)) return false;
    const std::string number = core.substr(begin, last ? std::string::npos : dot - begin);
    if (!IsDigits(number) || (number.size() > 1 && number[0] == '0')) return false;
    begin = dot + 1;
  }
  if (end_core == std::string::npos) return true;
  std::string_view rest(text);
  rest.remove_prefix(end_core);
  for (char marker : {'-', '+'}) {
    if (rest.empty() || rest[0] != marker) continue;
    rest.remove_prefix(1);
    const auto next = marker == '-' ? rest.find('+') : std::string_view::npos;
    const auto item = rest.substr(0, next);
    if (item.empty()) return false;
    for (char c : item) {
      const bool ok = IsWellFormedBackendId(std::string_view(&c, 1)) || c == '.' || c == '-';
      if (!ok) return false;
    }
    rest.remove_prefix(item.size());
  }
  return rest.empty();
}

bool IsHex64(const std::string& text) {
  if (text.size() != 64) return false;
  for (char c : text) {
    const bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    if (!hex) return false;
  }
  return true;
}

bool ParseFormatVersion(const std::string& text, BackendApiVersion& out) {
  return ParseBackendApiVersion(text, out);  // same MAJOR.MINOR form
}

std::string Lower(std::string text) {
  for (char& c : text) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return text;
}

// Collects problems about fields of one JSON object, with messages naming the file and field.
class FieldReader {
 public:
  FieldReader(const fs::path& file, std::vector<ManifestProblem>& problems)
      : file_(file.string()), problems_(problems) {}

  // The field when present and of type `type`; otherwise records a problem (if required or
  // ill-typed) and returns null.
  const json* Get(const json& object, const std::string& name, json::value_t type, bool required,
                  const char* type_name) {
    const auto it = object.find(name);
    if (it == object.end()) {
      if (required) Add(ReasonCode::kManifestFieldMissing, "required field \"" + name + "\" is missing");
      return nullptr;
    }
    const bool matches = it->type() == type ||
                         (type == json::value_t::number_unsigned && it->is_number_integer());
    if (!matches) {
      Add(ReasonCode::kManifestFieldInvalid, "field \"" + name + "\" must be " + type_name +
                                                 ", not " + std::string(it->type_name()));
      return nullptr;
    }
    return &*it;
  }

  // A required or optional string field that must satisfy `valid`; `rule` explains the form.
  std::optional<std::string> String(const json& object, const std::string& name, bool required,
                                    const std::function<bool(const std::string&)>& valid,
                                    const char* rule) {
    const json* field = Get(object, name, json::value_t::string, required, "a string");
    if (!field) return std::nullopt;
    std::string value = field->get<std::string>();
    if (valid && !valid(value)) {
      Add(ReasonCode::kManifestFieldInvalid,
          "field \"" + name + "\" is \"" + value + "\": " + rule);
      return std::nullopt;
    }
    return value;
  }

  void Add(ReasonCode code, const std::string& message) {
    problems_.push_back({code, file_ + ": " + message});
  }

 private:
  std::string file_;
  std::vector<ManifestProblem>& problems_;
};

void ReadCapabilities(const json& object, FieldReader& reader, Manifest& manifest,
                      std::vector<std::string>& warnings, const std::string& file) {
  const json* caps = reader.Get(object, "capabilities", json::value_t::object, true, "an object");
  if (!caps) return;
  auto& out = manifest.capabilities;
  if (auto kind = reader.String(*caps, "device_kind", true,
                                [](const std::string& v) { return backend::DeviceKindFromString(v).has_value(); },
                                "must be one of cpu, gpu, accelerator")) {
    out.device_kind = *backend::DeviceKindFromString(*kind);
  }
  if (const json* types = reader.Get(*caps, "data_types", json::value_t::array, true, "an array")) {
    for (const auto& item : *types) {
      const auto type = item.is_string() ? DataTypeFromString(item.get<std::string>()) : std::nullopt;
      if (!type) {
        reader.Add(ReasonCode::kManifestFieldInvalid,
                   "capabilities.data_types holds " + item.dump() +
                       ": must be one of f32, f16, bf16, i32, i64, bool");
        continue;
      }
      out.data_types.push_back(*type);
    }
  }
  if (const json* layers = reader.Get(*caps, "layer_types", json::value_t::array, true, "an array")) {
    for (const auto& item : *layers) {
      if (!item.is_string()) {
        reader.Add(ReasonCode::kManifestFieldInvalid,
                   "capabilities.layer_types holds " + item.dump() + ": must be a string");
        continue;
      }
      const auto type = backend::LayerTypeFromString(item.get<std::string>());
      if (!type || *type == backend::LayerType::kCount) {
        warnings.push_back(file + ": unknown layer type \"" + item.get<std::string>() +
                           "\" in capabilities.layer_types is ignored");
        continue;
      }
      out.layer_types.push_back(*type);
    }
  }
  if (const json* values = reader.Get(*caps, "values", json::value_t::object, false, "an object")) {
    for (const auto& [name, value] : values->items()) {
      if (!value.is_boolean()) {
        reader.Add(ReasonCode::kManifestFieldInvalid,
                   "capabilities.values." + name + " must be true or false, not " + value.dump());
        continue;
      }
      out.values[name] = value.get<bool>();
    }
  }
}

// "library" must be a bare file name in the manifest's folder.
std::string LibraryNameProblem(const std::string& name) {
  if (name.empty()) return "is empty";
  if (fs::path(name).is_absolute() || name.front() == '/' || name.front() == '\\') {
    return "is an absolute path; it must be a file name in the manifest's folder";
  }
  if (name == "." || name == "..") return "is not a file name";
  if (name.find_first_of("/\\:") != std::string::npos) {
    return "contains a folder separator; it must be a file name in the manifest's folder";
  }
  return {};
}

}  // namespace

TargetTags RuntimeTargetTags() { return {BACKPLANE_PLATFORM_TAG, BACKPLANE_ABI_TAG}; }

ManifestCheck CheckManifestFile(const fs::path& file, const TargetTags& target) {
  // One read of the whole file: manifests are small, and a folder may hold many.
  std::string text;
  std::ifstream in(file, std::ios::binary | std::ios::ate);
  if (in) {
    const auto size = in.tellg();
    if (size >= 0) {
      text.resize(static_cast<std::size_t>(size));
      in.seekg(0);
      in.read(text.data(), size);
    }
  }
  if (!in) {
    ManifestCheck check;
    check.stage = DiscoveryStage::kFound;
    check.problems.push_back({ReasonCode::kManifestUnreadable, file.string() + ": cannot be read"});
    return check;
  }
  return CheckManifestText(file, text, target);
}

ManifestCheck CheckManifestText(const fs::path& file, const std::string& text,
                                const TargetTags& target) {
  ManifestCheck check;
  const std::string name = file.string();

  check.stage = DiscoveryStage::kManifestRead;
  json root;
  try {
    root = json::parse(text);
  } catch (const json::parse_error& error) {
    check.problems.push_back({ReasonCode::kManifestInvalidJson,
                              name + ": not valid JSON: " + error.what()});
    return check;
  }
  if (!root.is_object()) {
    check.problems.push_back({ReasonCode::kManifestInvalidJson,
                              name + ": the top level must be a JSON object, not " +
                                  std::string(root.type_name())});
    return check;
  }
  if (const auto library = root.find("library"); library != root.end() && library->is_string()) {
    check.claimed_library = library->get<std::string>();
  }

  check.stage = DiscoveryStage::kManifestChecked;
  FieldReader reader(file, check.problems);

  // The format version decides whether the rest can be understood at all.
  const auto format = reader.String(root, "manifest_version", true,
                                    [](const std::string& v) {
                                      BackendApiVersion parsed;
                                      return ParseFormatVersion(v, parsed);
                                    },
                                    "must be MAJOR.MINOR");
  if (!format) return check;
  BackendApiVersion format_version;
  ParseFormatVersion(*format, format_version);
  if (format_version.major != kManifestFormatMajor) {
    check.problems.push_back({ReasonCode::kManifestVersionUnsupported,
                              name + ": manifest format " + *format + " is not supported; this runtime reads format " +
                                  std::to_string(kManifestFormatMajor) + ".x"});
    return check;
  }
  if (format_version.minor > kManifestFormatMinor) {
    check.warnings.push_back(name + ": manifest format " + *format + " is newer than this runtime's " +
                             std::to_string(kManifestFormatMajor) + "." +
                             std::to_string(kManifestFormatMinor) + "; fields it does not know are ignored");
  }

  Manifest manifest;
  manifest.file = file;
  const auto id = reader.String(root, "id", true,
                                [](const std::string& v) { return IsWellFormedBackendId(v); },
                                "must be 1 to 64 letters or digits");
  const auto vendor = reader.String(root, "vendor", true,
                                    [](const std::string& v) { return IsWellFormedBackendId(v); },
                                    "must be 1 to 64 letters or digits");
  const auto version = reader.String(root, "version", true, IsSemver,
                                     "must be a semantic version such as 1.2.3");
  const auto api = reader.String(root, "api_version", true,
                                 [](const std::string& v) {
                                   BackendApiVersion parsed;
                                   return ParseBackendApiVersion(v, parsed);
                                 },
                                 "must be MAJOR.MINOR");
  const auto library = reader.String(root, "library", true, nullptr, "");
  const auto platform = reader.String(root, "platform", true,
                                      [](const std::string& v) { return !v.empty(); }, "must not be empty");
  const auto abi = reader.String(root, "abi", true,
                                 [](const std::string& v) { return !v.empty(); }, "must not be empty");
  const auto sha256 = reader.String(root, "sha256", false, IsHex64, "must be 64 hex digits");
  const auto description = reader.String(root, "description", false, nullptr, "");
  ReadCapabilities(root, reader, manifest, check.warnings, name);

  // The library file: form, then existence.
  if (library) {
    if (const auto problem = LibraryNameProblem(*library); !problem.empty()) {
      reader.Add(ReasonCode::kLibraryPathInvalid, "library \"" + *library + "\" " + problem);
    } else {
      manifest.library_path = file.parent_path() / *library;
      std::error_code error;
      if (fs::exists(manifest.library_path, error)) {
        check.library_path = manifest.library_path;
      } else {
        const bool dangling = fs::is_symlink(fs::symlink_status(manifest.library_path, error));
        reader.Add(ReasonCode::kLibraryMissing,
                   "library " + manifest.library_path.string() +
                       (dangling ? " is a symlink that resolves to nothing" : " does not exist"));
      }
    }
  }
  if (platform && *platform != target.platform) {
    reader.Add(ReasonCode::kPlatformMismatch, "built for platform " + *platform +
                                                  ", but this runtime is " + target.platform);
  }
  if (abi && *abi != target.abi) {
    reader.Add(ReasonCode::kAbiMismatch, "built with C++ ABI " + *abi +
                                             ", but this runtime uses " + target.abi);
  }
  if (sha256) check.sha256 = Lower(*sha256);
  if (!check.problems.empty()) return check;

  manifest.id = *id;
  manifest.vendor = *vendor;
  manifest.version = *version;
  ParseBackendApiVersion(*api, manifest.api_version);
  manifest.library = *library;
  manifest.platform = *platform;
  manifest.abi = *abi;
  manifest.sha256 = check.sha256;
  if (description) manifest.description = *description;
  check.manifest = std::move(manifest);
  return check;
}

std::optional<ManifestProblem> CheckLibraryChecksum(const fs::path& library,
                                                    const std::string& expected,
                                                    const fs::path& manifest_file) {
  std::string actual;
  try {
    actual = Sha256OfFile(library);
  } catch (const std::exception& error) {
    return ManifestProblem{ReasonCode::kLibraryMissing, error.what()};
  }
  if (actual == expected) return std::nullopt;
  return ManifestProblem{ReasonCode::kChecksumMismatch,
                         library.string() + " has sha256 " + actual + ", but " +
                             manifest_file.string() + " says " + expected};
}

}  // namespace backplane::discovery
