#include "discovery/manifest.hpp"

#include "discovery/semver.hpp"
#include "discovery/sha256.hpp"
#include "loading/api_version.hpp"
#include "platform/message_text.hpp"
#include "platform/regular_file.hpp"

#include <backplane/backend_id.hpp>
#include <backplane/path_text.hpp>
#include <backplane/plugin.hpp>

#include <nlohmann/json.hpp>

#include <functional>
#include <new>
#include <sstream>
#include <string_view>
#include <system_error>
#include <unordered_set>

namespace backplane::discovery {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

// Semantic Versioning 2.0.0, as discovery/semver.hpp reads it.
bool IsSemver(const std::string& text) { return ParseSemver(text).has_value(); }

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

// A JSON value for a message, bounded: strings quoted and cut (Quoted), numbers and literals
// as written, arrays and objects by kind and size (never serialized: they may be large).
std::string ValueText(const json& value) {
  switch (value.type()) {
    case json::value_t::string: return platform::Quoted(value.get_ref<const std::string&>());
    case json::value_t::array: return "an array of " + std::to_string(value.size()) + " items";
    case json::value_t::object: return "an object of " + std::to_string(value.size()) + " fields";
    default: return platform::Bounded(value.dump());
  }
}

// Collects problems about fields of one JSON object, with messages naming the file and field.
class FieldReader {
 public:
  FieldReader(const fs::path& file, std::vector<ManifestProblem>& problems)
      : file_(PathToUtf8(file)), problems_(problems) {}

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
      Add(ReasonCode::kManifestFieldInvalid, "field \"" + name + "\" is " + platform::Quoted(value) + ": " + rule);
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
                   "capabilities.data_types holds " + ValueText(item) +
                       ": must be one of f32, f16, bf16, i32, i64, bool, i8, u8, i16, u16, u32, u64, f64");
        continue;
      }
      out.data_types.push_back(*type);
    }
  }
  if (const json* layers = reader.Get(*caps, "layer_types", json::value_t::array, true, "an array")) {
    for (const auto& item : *layers) {
      if (!item.is_string()) {
        reader.Add(ReasonCode::kManifestFieldInvalid,
                   "capabilities.layer_types holds " + ValueText(item) + ": must be a string");
        continue;
      }
      const auto type = backend::LayerTypeFromString(item.get<std::string>());
      if (!type || *type == backend::LayerType::kCount) {
        warnings.push_back(file + ": unknown layer type " + platform::Quoted(item.get<std::string>()) +
                           " in capabilities.layer_types is ignored");
        continue;
      }
      out.layer_types.push_back(*type);
    }
  }
  if (const json* values = reader.Get(*caps, "values", json::value_t::object, false, "an object")) {
    for (const auto& [name, value] : values->items()) {
      if (!value.is_boolean()) {
        reader.Add(ReasonCode::kManifestFieldInvalid,
                   "capabilities.values." + platform::Bounded(name) + " must be true or false, not " + ValueText(value));
        continue;
      }
      out.values[name] = value.get<bool>();
    }
  }
}

// "library" must be a bare file name in the manifest's folder.
std::string LibraryNameProblem(const std::string& name) {
  if (name.empty()) return "is empty";
  if (PathFromUtf8(name).is_absolute() || name.front() == '/' || name.front() == '\\') {
    return "is an absolute path; it must be a file name in the manifest's folder";
  }
  if (name == "." || name == "..") return "is not a file name";
  if (name.find_first_of("/\\:") != std::string::npos) {
    return "contains a folder separator; it must be a file name in the manifest's folder";
  }
  return {};
}

// Thrown by the parser callback to stop parsing at once; caught in ParseDocument.
struct ParseRefusal {
  std::string message;
};

// Accepts every event: finds where the first JSON value ends (json::sax_parse, not strict).
class SkippingSax final : public nlohmann::json_sax<json> {
 public:
  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override { return true; }
  bool key(string_t&) override { return true; }
  bool end_object() override { return true; }
  bool start_array(std::size_t) override { return true; }
  bool end_array() override { return true; }
  bool parse_error(std::size_t, const std::string&, const json::exception&) override {
    return false;
  }
};

// 1-based position of the first byte after the first JSON value of `text` that is not
// whitespace; only called once that value is known to be complete.
std::size_t TrailingBytePosition(std::string_view text) {
  std::istringstream stream{std::string(text)};
  SkippingSax sax;
  json::sax_parse(stream, &sax, json::input_format_t::json, /*strict=*/false);
  stream.clear();
  std::size_t at = static_cast<std::size_t>(stream.tellg());
  while (at < text.size() && (text[at] == ' ' || text[at] == '\t' || text[at] == '\n' || text[at] == '\r')) ++at;
  return at + 1;
}

// Parses `text` as exactly one JSON document into `root`. Returns "" or the problem: the
// parser's message (bounded: it may quote a long token), nesting deeper than
// kMaxManifestDepth, a key twice in one object, bytes after the document (nlohmann stops at a
// NUL byte as if the input ended there, so those are looked for first).
std::string ParseDocument(const std::string& text, json& root) {
  const std::size_t nul = text.find('\0');
  const std::string_view document(text.data(), nul == std::string::npos ? text.size() : nul);
  std::vector<std::unordered_set<std::string>> keys;  // one set per open object
  bool complete = false;                               // the top-level value has ended
  const json::parser_callback_t callback = [&](int depth, json::parse_event_t event, json& parsed) {
    switch (event) {
      case json::parse_event_t::object_start:
      case json::parse_event_t::array_start:
        if (depth >= kMaxManifestDepth) {
          throw ParseRefusal{"not accepted: JSON nested more than " +
                             std::to_string(kMaxManifestDepth) + " levels deep"};
        }
        if (event == json::parse_event_t::object_start) keys.emplace_back();
        break;
      case json::parse_event_t::object_end:
        keys.pop_back();
        complete = depth == 0;
        break;
      case json::parse_event_t::key:
        if (!keys.empty() && !keys.back().insert(parsed.get<std::string>()).second) {
          throw ParseRefusal{"not valid: key " + platform::Quoted(parsed.get<std::string>()) +
                             " appears twice in one object"};
        }
        break;
      case json::parse_event_t::array_end:
      case json::parse_event_t::value:
        complete = depth == 0;
        break;
    }
    return true;
  };
  try {
    root = json::parse(document.begin(), document.end(), callback);
  } catch (const ParseRefusal& refusal) {
    return refusal.message;
  } catch (const json::parse_error& error) {
    if (complete) {
      return "not valid JSON: unexpected bytes after the JSON document at byte " +
             std::to_string(TrailingBytePosition(document));
    }
    return std::string("not valid JSON: ") + platform::Bounded(error.what(), 200);
  } catch (const json::exception& error) {  // out_of_range: a number too large ("1e400")
    return std::string("not valid JSON: ") + platform::Bounded(error.what(), 200);
  }
  if (nul != std::string::npos) {
    // The text before the NUL byte is a complete document: the NUL is what follows it.
    return "not valid JSON: unexpected bytes after the JSON document at byte " + std::to_string(nul + 1);
  }
  return {};
}

// What the manifest's library file is: "" when it is a file (or a symlink to one) in the
// manifest's folder; else the problem and its code.
std::optional<ManifestProblem> LibraryFileProblem(const fs::path& library, const fs::path& folder) {
  std::error_code error;
  const fs::file_status link = fs::symlink_status(library, error);
  if (error || !fs::exists(link)) {
    return ManifestProblem{ReasonCode::kLibraryMissing, "library " + PathToUtf8(library) + " does not exist"};
  }
  if (!fs::is_symlink(link)) return std::nullopt;
  const fs::path target = fs::canonical(library, error);
  if (error) {
    const bool loop = error == std::errc::too_many_symbolic_link_levels;
    return ManifestProblem{ReasonCode::kLibraryMissing,
                           "library " + PathToUtf8(library) +
                               (loop ? " is a symlink loop" : " is a symlink that resolves to nothing")};
  }
  // A symlink may give the file another name (Foo.so -> Foo.so.1.2.3) but not take it out of
  // the folder: the manifest describes a file beside it.
  const fs::path home = fs::canonical(folder, error);
  if (error || target.parent_path() != home) {
    return ManifestProblem{ReasonCode::kLibraryPathInvalid,
                           "library " + PathToUtf8(library) + " is a symlink to " + PathToUtf8(target) +
                               ", outside the manifest's folder " + PathToUtf8(error ? folder : home)};
  }
  return std::nullopt;
}

// The manifest_version field: false (with the problem recorded) when this runtime cannot read
// the format; a newer minor is a warning.
bool CheckFormatVersion(const json& root, FieldReader& reader, const std::string& name, ManifestCheck& check) {
  const auto format = reader.String(root, "manifest_version", true,
                                    [](const std::string& v) {
                                      BackendApiVersion parsed;
                                      return ParseFormatVersion(v, parsed);
                                    },
                                    "must be MAJOR.MINOR");
  if (!format) return false;
  BackendApiVersion format_version;
  ParseFormatVersion(*format, format_version);
  if (format_version.major != kManifestFormatMajor) {
    check.problems.push_back({ReasonCode::kManifestVersionUnsupported,
                              name + ": manifest format " + *format + " is not supported; this runtime reads format " +
                                  std::to_string(kManifestFormatMajor) + ".x"});
    return false;
  }
  if (format_version.minor > kManifestFormatMinor) {
    check.warnings.push_back(name + ": manifest format " + *format + " is newer than this runtime's " +
                             std::to_string(kManifestFormatMajor) + "." +
                             std::to_string(kManifestFormatMinor) + "; fields it does not know are ignored");
  }
  return true;
}

// The library field of `file`: its form, then the file beside the manifest. Sets
// manifest.library_path and check.library_path when both hold; records the problem otherwise.
void CheckLibrary(const std::string& library, const fs::path& file, FieldReader& reader, Manifest& manifest,
                  ManifestCheck& check) {
  if (const auto problem = LibraryNameProblem(library); !problem.empty()) {
    reader.Add(ReasonCode::kLibraryPathInvalid, "library " + platform::Quoted(library) + " " + problem);
    return;
  }
  if (library.size() > kMaxFileNameBytes) {
    reader.Add(ReasonCode::kLibraryPathInvalid, "library " + platform::Quoted(library) + " is longer than " +
                                                    std::to_string(kMaxFileNameBytes) + " bytes, the longest file name");
    return;
  }
  manifest.library_path = file.parent_path() / PathFromUtf8(library);
  if (auto problem = LibraryFileProblem(manifest.library_path, file.parent_path())) {
    reader.Add(problem->code, problem->message);
  } else {
    check.library_path = manifest.library_path;
  }
}

ManifestCheck CheckManifestTextOrThrow(const fs::path& file, const std::string& text,
                                       const loading::TargetTags& target) {
  ManifestCheck check;
  const std::string name = PathToUtf8(file);

  check.stage = DiscoveryStage::kManifestRead;
  json root;
  if (std::string problem = ParseDocument(text, root); !problem.empty()) {
    check.problems.push_back({ReasonCode::kManifestInvalidJson, name + ": " + problem});
    return check;
  }
  if (!root.is_object()) {
    check.problems.push_back({ReasonCode::kManifestInvalidJson,
                              name + ": the top level must be a JSON object, not " +
                                  std::string(root.type_name())});
    return check;
  }
  // Only a plausible file name can claim a file in the folder (and become a record's path).
  if (const auto library = root.find("library"); library != root.end() && library->is_string()) {
    const auto& claimed = library->get_ref<const std::string&>();
    if (claimed.size() <= kMaxFileNameBytes && LibraryNameProblem(claimed).empty()) {
      check.claimed_library = claimed;
    }
  }

  check.stage = DiscoveryStage::kManifestChecked;
  FieldReader reader(file, check.problems);

  // The format version decides whether the rest can be understood at all.
  if (!CheckFormatVersion(root, reader, name, check)) return check;

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
  if (api) {
    BackendApiVersion declared;
    if (ParseBackendApiVersion(*api, declared)) {
      if (std::string problem = loading::ApiVersionProblem(declared, target.api); !problem.empty()) {
        reader.Add(ReasonCode::kApiVersionIncompatible, "the plugin was " + problem);
      }
    }
  }

  if (library) CheckLibrary(*library, file, reader, manifest, check);
  if (platform && *platform != target.platform) {
    reader.Add(ReasonCode::kPlatformMismatch, "built for platform " + platform::Bounded(*platform) +
                                                  ", but this runtime is " + target.platform);
  }
  if (abi && *abi != target.abi) {
    reader.Add(ReasonCode::kAbiMismatch, "built with C++ ABI " + platform::Bounded(*abi) +
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

}  // namespace

std::string ManifestMismatches(const Manifest& manifest, const std::string& backend_id,
                               BackendApiVersion api_version, const BackplanePluginIdentity& identity) {
  std::string mismatches;
  auto compare = [&](const char* what, const std::string& in_manifest, const char* in_library) {
    const std::string library_value = in_library ? in_library : "(null)";
    if (in_manifest == library_value) return;
    mismatches += (mismatches.empty() ? "" : "; ") + std::string(what) + " is " +
                  platform::Quoted(in_manifest) + " in the manifest but " + platform::Quoted(library_value) +
                  " in the library";
  };
  compare("id", manifest.id, backend_id.c_str());
  compare("api_version", ToString(manifest.api_version), ToString(api_version).c_str());
  compare("version", manifest.version, identity.plugin_version);
  compare("vendor", manifest.vendor, identity.vendor);
  return mismatches;
}

namespace {

// The first step of CheckManifestFile: reads the whole of `file` into `text`, or returns the
// kManifestUnreadable problem (not a regular file, larger than kMaxManifestBytes, an I/O error).
std::optional<ManifestProblem> ReadManifestBytes(const fs::path& file, std::string& text) {
  auto unreadable = [&](const std::string& why) {
    return ManifestProblem{ReasonCode::kManifestUnreadable, PathToUtf8(file) + ": " + why};
  };
  try {
    // Only a regular file is read (checked on the opened handle: a FIFO or a device would
    // block or never end), and only up to kMaxManifestBytes.
    platform::OpenFailure failure{};
    std::string why;
    const auto opened = platform::RegularFile::Open(file, failure, why);
    if (!opened) {
      return unreadable(failure == platform::OpenFailure::kNotRegular ? why + ", not a regular file" : why);
    }
    if (opened->Size() > kMaxManifestBytes) {
      return unreadable("is " + std::to_string(opened->Size()) + " bytes; a manifest may have at most " +
                        std::to_string(kMaxManifestBytes) + " (1 MiB)");
    }
    // One read of the whole file: manifests are small, and a folder may hold many.
    text.assign(static_cast<std::size_t>(opened->Size()), '\0');
    const auto read = opened->ReadAt(0, text.data(), text.size(), why);
    if (!read) return unreadable(why);
    text.resize(*read);
    return std::nullopt;
  } catch (const std::bad_alloc&) {
    throw;  // a broken invariant: the scan stops
  } catch (const std::exception& error) {
    return unreadable("cannot be checked: " + platform::Bounded(error.what(), 200));
  }
}

}  // namespace

ManifestCheck CheckManifestFile(const fs::path& file, const loading::TargetTags& target, std::string* bytes) {
  std::string text;
  if (auto problem = ReadManifestBytes(file, text)) {
    ManifestCheck check;
    check.stage = DiscoveryStage::kFound;
    check.problems.push_back(std::move(*problem));
    return check;
  }
  ManifestCheck check = CheckManifestText(file, text, target);
  if (bytes) *bytes = std::move(text);
  return check;
}

ManifestCheck CheckManifestText(const fs::path& file, const std::string& text,
                                const loading::TargetTags& target) {
  try {
    return CheckManifestTextOrThrow(file, text, target);
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& error) {
    ManifestCheck check;
    check.stage = DiscoveryStage::kManifestChecked;
    check.problems.push_back({ReasonCode::kManifestInvalidJson,
                              PathToUtf8(file) + ": cannot be checked: " + platform::Bounded(error.what(), 200)});
    return check;
  }
}


std::optional<ManifestProblem> OpenLibraryFile(const fs::path& library,
                                               std::optional<platform::RegularFile>& opened) {
  platform::OpenFailure failure{};
  std::string why;
  opened = platform::RegularFile::Open(library, failure, why);
  if (opened) return std::nullopt;
  switch (failure) {
    case platform::OpenFailure::kNotRegular:
      return ManifestProblem{ReasonCode::kLibraryInvalid,
                             PathToUtf8(library) + " " + why + ", not a regular file"};
    case platform::OpenFailure::kSymlinkLoop:
      return ManifestProblem{ReasonCode::kLibraryMissing, PathToUtf8(library) + " is a symlink loop"};
    case platform::OpenFailure::kMissing: {
      std::error_code error;
      const bool link = fs::is_symlink(fs::symlink_status(library, error));
      return ManifestProblem{ReasonCode::kLibraryMissing,
                             PathToUtf8(library) + (link ? " is a symlink that resolves to nothing"
                                                         : " does not exist")};
    }
    case platform::OpenFailure::kUnreadable:
      break;
  }
  return ManifestProblem{ReasonCode::kLibraryMissing, PathToUtf8(library) + " " + why};
}

std::optional<ManifestProblem> CheckLibraryChecksum(const platform::RegularFile& file,
                                                    const fs::path& library,
                                                    const std::string& expected,
                                                    const fs::path& manifest_file) {
  std::string actual;
  try {
    actual = Sha256OfFile(file, library);
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& error) {
    return ManifestProblem{ReasonCode::kLibraryMissing, error.what()};
  }
  if (actual == expected) return std::nullopt;
  return ManifestProblem{ReasonCode::kChecksumMismatch,
                         PathToUtf8(library) + " has sha256 " + actual + ", but " +
                             PathToUtf8(manifest_file) + " says " + expected};
}

std::optional<ManifestProblem> CheckLibraryChecksum(const fs::path& library,
                                                    const std::string& expected,
                                                    const fs::path& manifest_file) {
  std::optional<platform::RegularFile> opened;
  if (auto problem = OpenLibraryFile(library, opened)) return problem;
  return CheckLibraryChecksum(*opened, library, expected, manifest_file);
}

}  // namespace backplane::discovery
