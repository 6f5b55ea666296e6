// `list` and `verify`: the installed drops with what the runtime's checks say of them (manifest,
// the library's sha256, signature under the policy). Nothing here opens a library.
#pragma once

#include "command_line.hpp"
#include "drop_folders.hpp"

#include <backplane/trust.hpp>

#include <string>
#include <vector>

namespace backplane::sdk_plugin {

// One problem of an installed drop: a reason code's name ("checksum_mismatch",
// "signature_missing", ...) and the runtime's message.
struct DropProblem {
  std::string code;
  std::string message;
};

// Every problem of `drop`: the manifest's (ValidateManifestFile), then the policy's rejection.
std::vector<DropProblem> ProblemsOf(const InstalledDrop& drop);

struct DropSurvey {
  TrustSettings trust;             // the settings the signatures were checked under
  std::vector<DropFolder> folders;  // the drop folders looked at
  std::vector<InstalledDrop> drops;
  std::size_t Failed() const;      // how many drops do not pass (InstalledDrop::Passes)
};

// The drops in the drop folders of `scope`, of backend `id` only when it is not "" (its id or
// its folder's name, DropMatches), checked under ResolveTrustSettings(`trust`). Throws
// ToolError (kInputMissing) when `id` is given and no drop matches.
DropSurvey SurveyDrops(Scope scope, const TrustOptions& trust, const std::string& id = "");

}  // namespace backplane::sdk_plugin
