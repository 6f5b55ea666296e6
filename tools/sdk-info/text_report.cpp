#include "text_report.hpp"

#include "text_style.hpp"

#include <backplane/path_text.hpp>
#include <backplane/plugin.hpp>
#include <backplane/version.hpp>

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace backplane::sdk_info {

using tools::Plural;
using tools::TextStyle;


namespace {

// The folder `text` names, or that holds the file it names (`of_file`), spelled one way for
// comparing: "/a/b", "/a/b/" and "/a/b/." are "/a/b", and "/a/b/./x" is in it.
std::filesystem::path FolderNamed(const std::string& text, bool of_file = false) {
  std::filesystem::path path = PathFromUtf8(text).lexically_normal();
  if (of_file || !path.has_filename()) path = path.parent_path();
  return path;
}

constexpr std::size_t kLineWidth = 100;
constexpr std::string_view kFieldIndent = "    ";
constexpr std::size_t kLabelWidth = 14;

// Continuation lines of a multi-line value line up under its first line.
std::string IndentContinuation(std::string_view text) {
  const std::string indent = std::string(kFieldIndent) + std::string(kLabelWidth, ' ');
  std::string out;
  for (char c : text) {
    out.push_back(c);
    if (c == '\n') out += indent;
  }
  return out;
}

void Field(std::ostream& out, std::string_view label, std::string_view value) {
  std::string padded(label);
  if (padded.size() < kLabelWidth) padded.resize(kLabelWidth, ' ');
  out << kFieldIndent << padded << IndentContinuation(value) << '\n';
}

// "a, b, c" wrapped at kLineWidth, continuation lines aligned with the first item.
std::string JoinWrapped(const std::vector<std::string>& items) {
  if (items.empty()) return "(none)";
  const std::size_t start = kFieldIndent.size() + kLabelWidth;
  std::string out;
  std::size_t column = start;
  for (std::size_t i = 0; i < items.size(); ++i) {
    const bool last = i + 1 == items.size();
    const std::string piece = items[i] + (last ? "" : ",");
    if (i > 0) {
      if (column + 1 + piece.size() > kLineWidth) {
        out += '\n';
        column = start;
      } else {
        out += ' ';
        ++column;
      }
    }
    out += piece;
    column += piece.size();
  }
  return out;
}

std::string OrUnknown(const std::string& text) { return text.empty() ? "(unknown)" : text; }

void WriteHeader(std::ostream& out, const TextStyle& style) {
  out << style.Heading("Backplane SDK " + ToString(kSdkVersion)) << ", Backend API "
      << ToString(kBackendApiVersion) << " (" << BACKPLANE_PLATFORM_TAG << ", "
      << BACKPLANE_ABI_TAG << ")\n";
}

void WriteSearchPaths(std::ostream& out, const DiscoveryReport& report, const TextStyle& style) {
  out << '\n' << style.Heading("Search paths") << ":\n";
  if (!report.dynamic_loading_enabled) {
    out << "  (none: dynamic loading is disabled, only static backends are used)\n";
    return;
  }
  if (report.search_paths.empty()) {
    out << "  (none: no folder was given and the default folder is unknown)\n";
    return;
  }
  std::size_t number = 0;
  for (const SearchPath& path : report.search_paths) {
    out << "  " << ++number << ". " << path.path << "  (" << path.source << ")  ";
    if (path.valid) {
      // What this layer contributed: its candidates, and how many of them registered.
      std::size_t candidates = 0, registered = 0;
      for (const DiscoveryRecord& record : report.records) {
        const std::string& file = CandidateFile(record);
        // A drop layer's candidates may lie one subfolder down (one folder per installed drop).
        const std::filesystem::path folder = FolderNamed(file, true);
        const std::filesystem::path searched = FolderNamed(path.path);
        if (file.empty() || (folder != searched && folder.parent_path() != searched)) continue;
        ++candidates;
        if (record.verdict == Verdict::kRegistered) ++registered;
      }
      out << style.Good("ok") << ": " << Plural(candidates, "candidate", "candidates") << ", " << registered
          << " registered\n";
    } else if (path.normally_absent) {
      out << "none yet (a drop folder; it does not exist)\n";
    } else {
      out << style.Notice("skipped: " + (path.reason.empty() ? "invalid" : path.reason)) << '\n';
    }
  }
}

// The trust policy, where it came from, and the trusted keys (docs/backend-discovery.md §8).
void WriteTrust(std::ostream& out, const TrustSettings& trust, const TextStyle& style) {
  out << '\n' << style.Heading("Trust") << ": policy " << ToString(trust.policy) << " (" << trust.policy_source
      << ")\n";
  for (const TrustFolder& folder : trust.key_folders) {
    std::size_t count = 0;
    for (const TrustedKey& key : trust.keys) {
      if (FolderNamed(key.file, true) == FolderNamed(folder.path)) ++count;
    }
    out << "  keys in " << folder.path << "  (" << folder.source << "): " << count << '\n';
  }
  for (const TrustedKey& key : trust.keys) {
    out << "  " << style.Name(key.publisher) << "  key " << key.key_id << "  (" << key.source << ")\n";
  }
  for (const std::string& problem : trust.problems) out << "  " << style.Notice(problem) << '\n';
}

// "verified: Acme (key 0123456789abcdef)", "unsigned", "untrusted key ... (claims "Acme")".
std::string SignatureText(const SignatureInfo& signature) {
  switch (signature.status) {
    case SignatureStatus::kVerified:
      return "verified: " + signature.publisher + " (key " + signature.key_id + ")";
    case SignatureStatus::kUntrusted:
      return "untrusted: key " + signature.key_id + " (claims \"" + signature.publisher + "\") is in no trust folder";
    case SignatureStatus::kUnsigned: return "unsigned";
    case SignatureStatus::kInvalid: return "invalid";
    case SignatureStatus::kNotChecked: break;
  }
  return "not checked";
}

void WriteWarnings(std::ostream& out, const std::vector<std::string>& warnings,
                   const TextStyle& style) {
  for (const std::string& warning : warnings) Field(out, "warning", style.Notice(warning));
}

// "CpuRef 0.2.0 by Backplane, Backend API 2.0: available" (or "unavailable: <reason>").
std::string BackendTitle(const BackendInfo& backend, const TextStyle& style) {
  std::string title = style.Name(backend.id.Get()) + ' ' + backend.version;
  if (!backend.vendor.empty()) title += " by " + backend.vendor;
  return title + ", Backend API " + ToString(backend.api_version) + ": " +
         (backend.available ? style.Good("available")
                            : style.Bad("unavailable: " + OrUnknown(backend.unavailable_reason)));
}

void WriteBackend(std::ostream& out, const BackendInfo& backend, const DiscoveryRecord* record,
                  const TextReportOptions& options, const TextStyle& style) {
  out << "  " << BackendTitle(backend, style) << '\n';
  Field(out, "found by", std::string(ToString(backend.found_by)) +
                            (backend.layer.empty() ? "" : " in the " + backend.layer + " layer"));
  if (!backend.preference.empty()) Field(out, "preference", backend.preference);
  if (backend.found_by != FoundBy::kStatic) {
    Field(out, "library", OrUnknown(backend.library_path));
    Field(out, "manifest", backend.manifest_path.empty() ? "(none)" : backend.manifest_path);
    const std::string signature = SignatureText(backend.signature);
    Field(out, "signature", backend.signature.status == SignatureStatus::kVerified ? style.Good(signature)
                            : backend.signature.status == SignatureStatus::kNotChecked ? signature
                                                                                       : style.Notice(signature));
  }

  const backend::BackendCapabilities& capabilities = backend.capabilities;
  Field(out, "device kind", ToString(capabilities.device_kind));
  std::vector<std::string> names;
  for (DataType type : capabilities.data_types) names.emplace_back(ToString(type));
  Field(out, "data types", JoinWrapped(names));
  names.clear();
  for (backend::LayerType type : capabilities.layer_types) names.emplace_back(ToString(type));
  Field(out, "layer types", JoinWrapped(names));
  names.clear();
  for (const auto& [name, value] : capabilities.values) {
    names.push_back(name + "=" + (value ? "true" : "false"));
  }
  Field(out, "values", JoinWrapped(names));

  if (backend.devices.empty()) Field(out, "devices", "(none reported)");
  for (const backend::DeviceInfo& device : backend.devices) {
    std::string line = device.name.empty() ? std::string("(unnamed)") : device.name;
    line += std::string("  [") + ToString(device.kind) + "]  ";
    line += device.available ? style.Good("available")
                             : style.Bad("unavailable: " + OrUnknown(device.reason));
    Field(out, "device", line);
  }

  // What RuntimeOptions::backend_options (sdk-run --backend-option) may set for it.
  if (backend.options.empty()) Field(out, "options", "(none)");
  for (const backend::OptionSpec& option : backend.options) {
    std::string line = option.key + " (" + OptionTypeName(option.type) + ", default \"" + option.default_value + "\")";
    if (!option.doc.empty()) line += ": " + option.doc;
    Field(out, "option", line);
  }

  if (record == nullptr) return;
  if (options.verbose) {
    Field(out, "stage", ToString(record->stage));
    Field(out, "code", ToString(record->code));
    if (!record->message.empty()) Field(out, "message", record->message);
    WriteWarnings(out, record->warnings, style);
  } else if (!record->warnings.empty()) {
    Field(out, "warnings", style.Notice(Plural(record->warnings.size(), "warning", "warnings") +
                                        " (--verbose shows them)"));
  }
}

void WriteCandidate(std::ostream& out, const DiscoveryRecord& record, const TextStyle& style) {
  const std::string& title = CandidateFile(record);
  out << "  " << style.Name(title.empty() ? std::string("(unnamed candidate)") : title) << '\n';
  const std::string reason = std::string(ToString(record.code)) +
                             (record.message.empty() ? "" : ": " + record.message);
  Field(out, "verdict", record.verdict == Verdict::kRejected ? style.Bad(ToString(record.verdict))
                                                             : style.Notice(ToString(record.verdict)));
  Field(out, "reason", reason);
  Field(out, "stage", ToString(record.stage));
  Field(out, "found by", ToString(record.found_by));
  if (!record.manifest_path.empty()) Field(out, "library", OrUnknown(record.library_path));
  if (!record.backend_id.empty()) {
    Field(out, "backend id", record.backend_id + (record.version.empty() ? "" : " " + record.version));
  }
  WriteWarnings(out, record.warnings, style);
}

void WriteCandidates(std::ostream& out, std::string_view heading, const Inventory& inventory,
                     const std::vector<std::size_t>& indices, const TextStyle& style) {
  out << '\n' << style.Heading(heading) << " (" << indices.size() << "):\n";
  if (indices.empty()) out << "  (none)\n";
  for (std::size_t index : indices) WriteCandidate(out, inventory.report.records[index], style);
}

void WriteSummary(std::ostream& out, const Inventory& inventory, const TextStyle& style) {
  const std::size_t rejected = inventory.rejected.size();
  const std::size_t duplicates = inventory.CountVerdict(Verdict::kDuplicate);
  const std::size_t superseded = inventory.CountVerdict(Verdict::kSuperseded);
  const std::size_t filtered = inventory.CountVerdict(Verdict::kFiltered);
  out << '\n' << style.Heading("Summary") << ": ";
  if (inventory.backends.empty()) {
    out << style.Bad("no backend registered");
  } else {
    out << style.Good(Plural(inventory.backends.size(), "backend", "backends") + " registered");
  }
  out << ", " << (rejected == 0 ? Plural(rejected, "candidate", "candidates")
                                : style.Bad(Plural(rejected, "candidate", "candidates")))
      << " rejected, " << Plural(duplicates, "duplicate", "duplicates") << " skipped";
  if (superseded > 0) out << ", " << superseded << " superseded by another copy of their id";
  if (filtered > 0) out << ", " << filtered << " filtered out";
  out << ".\n";
  if (inventory.backends.empty()) {
    out << "Give a folder with --path DIR or in " << kBackendPathsEnvVar
        << "; --verbose shows every step.\n";
  }
}

// "1 device: host CPU [cpu]", "2 devices: a [gpu], b [gpu] (unavailable)".
std::string DevicesInShort(const std::vector<backend::DeviceInfo>& devices, const TextStyle& style) {
  if (devices.empty()) return "no device reported";
  std::string text = Plural(devices.size(), "device", "devices") + ": ";
  for (const backend::DeviceInfo& device : devices) {
    if (&device != &devices.front()) text += ", ";
    text += (device.name.empty() ? std::string("(unnamed)") : device.name) + " [" + ToString(device.kind) + "]";
    if (!device.available) text += " " + style.Bad("(unavailable)");
  }
  return text;
}

}  // namespace

void WriteSummaryText(std::ostream& out, const Inventory& inventory,
                      const TextReportOptions& options) {
  const TextStyle style(options.colour);
  WriteHeader(out, style);
  out << '\n';
  for (const BackendInfo& backend : inventory.backends) {
    out << "  " << BackendTitle(backend, style) << "; " << DevicesInShort(backend.devices, style) << '\n';
  }
  for (std::size_t index : inventory.rejected) {
    const DiscoveryRecord& record = inventory.report.records[index];
    out << "  " << style.Bad("rejected") << ' ' << CandidateFile(record) << ": " << ToString(record.code) << '\n';
  }
  WriteSummary(out, inventory, style);
}

void WriteBackendText(std::ostream& out, const Inventory& inventory, std::size_t backend,
                      const TextReportOptions& options) {
  const TextStyle style(options.colour);
  WriteHeader(out, style);
  const BackendInfo& info = inventory.backends[backend];
  out << '\n' << style.Heading("Backend " + info.id.Get()) << " (" << backend + 1 << " of "
      << inventory.backends.size() << " in the default preference order):\n";
  TextReportOptions in_full = options;
  in_full.verbose = true;
  WriteBackend(out, info, RecordOf(inventory, backend), in_full, style);
  WriteCandidates(out, "Other candidates with id " + info.id.Get(), inventory,
                  RecordsOf(inventory, info.id.Get(), inventory.backend_record[backend]), style);
}

void WriteTextReport(std::ostream& out, const Inventory& inventory,
                     const TextReportOptions& options) {
  const TextStyle style(options.colour);
  WriteHeader(out, style);
  WriteSearchPaths(out, inventory.report, style);
  if (inventory.report.dynamic_loading_enabled) WriteTrust(out, inventory.trust, style);

  out << '\n' << style.Heading("Backends") << " (" << inventory.backends.size()
      << ", in the default preference order):\n";
  if (inventory.backends.empty()) out << "  (none)\n";
  for (std::size_t i = 0; i < inventory.backends.size(); ++i) {
    WriteBackend(out, inventory.backends[i], RecordOf(inventory, i), options, style);
  }

  WriteCandidates(out, "Rejected candidates", inventory, inventory.rejected, style);
  WriteCandidates(out, "Other candidates", inventory, inventory.other, style);
  WriteSummary(out, inventory, style);
}

}  // namespace backplane::sdk_info
