#include "manifest_validation_report.hpp"

#include "json_report.hpp"
#include "text_style.hpp"

#include <backplane/discovery_report.hpp>
#include <backplane/plugin.hpp>
#include <backplane/version.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>

namespace backplane::sdk_info {

using tools::Plural;
using tools::TextStyle;

std::vector<ValidatedManifest> ValidateManifests(const std::vector<std::string>& paths) {
  std::vector<ValidatedManifest> manifests;
  manifests.reserve(paths.size());
  for (const std::string& path : paths) manifests.push_back({path, ValidateManifestFile(path)});
  return manifests;
}

ExitCode ExitCodeFor(const std::vector<ValidatedManifest>& manifests) {
  const bool all_valid = std::all_of(manifests.begin(), manifests.end(),
                                     [](const ValidatedManifest& m) { return m.result.valid; });
  return all_valid ? ExitCode::kOk : ExitCode::kCandidatesRejected;
}

void WriteManifestValidationText(std::ostream& out, const std::vector<ValidatedManifest>& manifests,
                                 bool colour) {
  const TextStyle style(colour);
  std::size_t valid = 0;
  for (const ValidatedManifest& manifest : manifests) {
    const ManifestValidation& result = manifest.result;
    if (&manifest != &manifests.front()) out << '\n';
    out << style.Name(manifest.path) << ": ";
    if (result.valid) {
      ++valid;
      out << style.Good("valid");
    } else {
      out << style.Bad("invalid, " + Plural(result.problems.size(), "problem", "problems"));
    }
    out << '\n';
    for (const ManifestProblem& problem : result.problems) {
      out << "  " << style.Bad(ToString(problem.code)) << ": " << problem.message << '\n';
    }
    for (const std::string& warning : result.warnings) {
      out << "  " << style.Notice("warning") << ": " << warning << '\n';
    }
  }
  out << '\n' << style.Heading("Summary") << ": " << valid << " of "
      << Plural(manifests.size(), "manifest", "manifests") << " valid (checked for "
      << BACKPLANE_PLATFORM_TAG << ", " << BACKPLANE_ABI_TAG << ", Backend API "
      << ToString(kBackendApiVersion) << ").\n";
}

std::string ManifestValidationJson(const std::vector<ValidatedManifest>& manifests) {
  using json = nlohmann::ordered_json;  // fields in the documented order
  json items = json::array();
  for (const ValidatedManifest& manifest : manifests) {
    json problems = json::array();
    for (const ManifestProblem& problem : manifest.result.problems) {
      problems.push_back({{"code", ToString(problem.code)}, {"message", problem.message}});
    }
    items.push_back({{"path", manifest.path},
                     {"valid", manifest.result.valid},
                     {"problems", std::move(problems)},
                     {"warnings", manifest.result.warnings}});
  }
  const ExitCode exit_code = ExitCodeFor(manifests);
  json document = DocumentHeader("manifest_validation");
  document["manifests"] = std::move(items);
  return FinishDocument(std::move(document), exit_code == ExitCode::kOk ? "ok" : "invalid", exit_code);
}

}  // namespace backplane::sdk_info
