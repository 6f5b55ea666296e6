#include "text_output.hpp"

#include <backplane/path_text.hpp>

#include <filesystem>

namespace backplane::sdk_plugin {

using tools::Plural;
using tools::TextStyle;
namespace fs = std::filesystem;

namespace {

std::string IdAndVersion(const InstalledDrop& drop) {
  if (drop.backend_id.empty()) return PathToUtf8(drop.folder.filename());
  return drop.backend_id + " " + drop.version;
}

std::string FolderState(const fs::path& folder) {
  std::error_code error;
  return fs::is_directory(folder, error) ? "" : " (does not exist)";
}

void WriteProblems(std::ostream& out, const InstalledDrop& drop, const TextStyle& style) {
  for (const DropProblem& problem : ProblemsOf(drop)) {
    out << "    " << style.Bad(problem.code) << ": " << problem.message << '\n';
  }
  std::vector<std::string> warnings = drop.validation.warnings;
  if (drop.trust) warnings.insert(warnings.end(), drop.trust->warnings.begin(), drop.trust->warnings.end());
  for (const std::string& warning : warnings) out << "    " << style.Notice("warning") << ": " << warning << '\n';
}

}  // namespace

std::string DescribeSignature(const SignatureInfo& signature) {
  const std::string key = signature.key_id.empty() ? "" : " (key " + signature.key_id + ")";
  switch (signature.status) {
    case SignatureStatus::kNotChecked: return "not checked (policy off)";
    case SignatureStatus::kVerified: return "verified, publisher " + signature.publisher + key;
    case SignatureStatus::kUnsigned: return "unsigned";
    case SignatureStatus::kUntrusted: return "untrusted: signed as " + signature.publisher + key + " by a key not trusted here";
    case SignatureStatus::kInvalid: return "invalid" + key;
  }
  return ToString(signature.status);
}

void WriteInstallText(std::ostream& out, const InstallResult& result, const TextStyle& style) {
  out << style.Good("installed") << ' ' << style.Name(result.backend_id) << ' ' << result.version;
  if (!result.vendor.empty()) out << " (" << result.vendor << ")";
  out << " into " << result.folder << '\n';
  if (result.record) out << "  signature: " << DescribeSignature(result.record->signature) << '\n';
  if (result.replaced) out << "  replaced the copy of this version that was installed (--force)\n";
  if (result.record) {
    for (const std::string& warning : result.record->warnings) {
      out << "  " << style.Notice("warning") << ": " << warning << '\n';
    }
  }
  for (const std::string& folder : result.stale_removed) {
    out << "  removed " << folder << ", left by an interrupted run\n";
  }
}

void WriteListText(std::ostream& out, const DropSurvey& survey, const TextStyle& style) {
  out << "Signature policy: " << ToString(survey.trust.policy) << " (" << survey.trust.policy_source << ")\n";
  for (const DropFolder& folder : survey.folders) {
    out << '\n' << style.Heading(folder.source + " drops") << ": " << PathToUtf8(folder.path)
        << FolderState(folder.path) << '\n';
    std::size_t count = 0;
    for (const InstalledDrop& drop : survey.drops) {
      if (drop.source != folder.source) continue;
      ++count;
      out << "  " << style.Name(IdAndVersion(drop));
      if (!drop.vendor.empty()) out << "  vendor " << drop.vendor;
      out << "  " << (drop.validation.valid ? style.Good("valid") : style.Bad("invalid"));
      if (drop.trust) out << "  " << DescribeSignature(drop.trust->signature);
      out << '\n' << "    " << PathToUtf8(drop.folder) << '\n';
      WriteProblems(out, drop, style);
    }
    if (count == 0) out << "  (none)\n";
  }
}

void WriteVerifyText(std::ostream& out, const DropSurvey& survey, const TextStyle& style) {
  out << "Signature policy: " << ToString(survey.trust.policy) << " (" << survey.trust.policy_source << ")\n";
  for (const InstalledDrop& drop : survey.drops) {
    out << (drop.Passes() ? style.Good("ok    ") : style.Bad("FAILED")) << "  " << style.Name(IdAndVersion(drop))
        << "  " << PathToUtf8(drop.folder) << '\n';
    if (drop.trust) out << "    signature: " << DescribeSignature(drop.trust->signature) << '\n';
    WriteProblems(out, drop, style);
  }
  out << Plural(survey.drops.size(), "drop", "drops") << " checked, " << survey.Failed() << " failed\n";
}

void WriteRemovalText(std::ostream& out, const RemovalResult& result, const TextStyle& style) {
  for (const InstalledDrop& drop : result.removed) {
    out << style.Good("removed") << ' ' << style.Name(IdAndVersion(drop)) << " (" << PathToUtf8(drop.folder) << ")\n";
  }
  for (const InstalledDrop& drop : result.remaining) {
    out << "  still installed: " << IdAndVersion(drop) << " (" << PathToUtf8(drop.folder) << ")\n";
  }
}

void WriteKeysText(std::ostream& out, const TrustSettings& settings, const TextStyle& style) {
  out << "Signature policy: " << ToString(settings.policy) << " (" << settings.policy_source << ")\n";
  out << '\n' << style.Heading("Key folders") << ":\n";
  for (const TrustFolder& folder : settings.key_folders) {
    out << "  " << folder.path << "  (" << folder.source << ")" << FolderState(PathFromUtf8(folder.path)) << '\n';
  }
  out << '\n' << style.Heading("Trusted keys") << " (" << settings.keys.size() << "):\n";
  for (const TrustedKey& key : settings.keys) {
    out << "  " << style.Name(key.publisher) << "  key " << key.key_id << "  " << key.file << "  (" << key.source
        << ")\n";
  }
  if (settings.keys.empty()) out << "  (none)\n";
  if (!settings.problems.empty()) {
    out << '\n' << style.Heading("Not used") << " (" << settings.problems.size() << "):\n";
    for (const std::string& problem : settings.problems) out << "  " << style.Notice(problem) << '\n';
  }
}

void WriteKeyAddText(std::ostream& out, const KeyAddResult& result, const TextStyle& style) {
  out << style.Good(result.replaced ? "replaced" : "added") << " the key of " << style.Name(result.key.publisher)
      << " (key " << result.key.key_id << ") as " << result.key.file << '\n';
}

void WriteKeyRemoveText(std::ostream& out, const KeyRemoveResult& result, const TextStyle& style) {
  for (const TrustedKey& key : result.removed) {
    out << style.Good("removed") << " the key of " << style.Name(key.publisher) << " (key " << key.key_id << ", "
        << key.file << ")\n";
  }
}

void WriteKeygenText(std::ostream& out, const KeygenResult& result, const TextStyle& style) {
  out << "key id " << style.Name(result.key.key_id) << " for publisher " << result.key.publisher << '\n'
      << "  private key: " << result.private_key_file << " (keep it secret)\n"
      << "  public key:  " << result.public_key_file << " (users trust it with: sdk-plugin keys add "
      << result.public_key_file << ")\n";
}

void WriteSignText(std::ostream& out, const SignatureInfo& signature, const TextStyle& style) {
  out << "signed as " << style.Name(signature.publisher) << " with key " << signature.key_id << '\n'
      << "  signature: " << signature.signature_path << '\n';
}

}  // namespace backplane::sdk_plugin
