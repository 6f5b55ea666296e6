#include "drop_verification.hpp"

#include "exit_code.hpp"

#include <backplane/path_text.hpp>

#include <algorithm>

namespace backplane::sdk_plugin {

std::vector<DropProblem> ProblemsOf(const InstalledDrop& drop) {
  std::vector<DropProblem> problems;
  for (const ManifestProblem& problem : drop.validation.problems) {
    problems.push_back({ToString(problem.code), problem.message});
  }
  if (drop.trust && drop.trust->rejection) {
    problems.push_back({ToString(drop.trust->rejection->code), drop.trust->rejection->message});
  }
  return problems;
}

std::size_t DropSurvey::Failed() const {
  return static_cast<std::size_t>(
      std::count_if(drops.begin(), drops.end(), [](const InstalledDrop& drop) { return !drop.Passes(); }));
}

DropSurvey SurveyDrops(Scope scope, const TrustOptions& trust, const std::string& id) {
  DropSurvey survey;
  survey.trust = ResolveTrustSettings(trust);
  survey.folders = DropFoldersOf(scope);
  survey.drops = FindInstalledDrops(survey.folders, &survey.trust);
  if (id.empty()) return survey;
  survey.drops.erase(std::remove_if(survey.drops.begin(), survey.drops.end(),
                                    [&](const InstalledDrop& drop) { return !DropMatches(drop, id); }),
                     survey.drops.end());
  if (survey.drops.empty()) {
    std::string folders;
    for (const DropFolder& folder : survey.folders) {
      folders += (folders.empty() ? "" : ", ") + PathToUtf8(folder.path) + " (" + folder.source + ")";
    }
    throw ToolError(ExitCode::kInputMissing,
                    "no drop of " + id + " is installed in " + (folders.empty() ? "any drop folder" : folders));
  }
  return survey;
}

}  // namespace backplane::sdk_plugin
