// sdk-info --validate-manifest: every problem of each manifest file, as text or JSON.
#pragma once

#include "exit_code.hpp"

#include <backplane/runtime.hpp>

#include <ostream>
#include <string>
#include <vector>

namespace backplane::sdk_info {

struct ValidatedManifest {
  std::string path;  // as checked (absolute)
  ManifestValidation result;
};

// Checks each file with backplane::ValidateManifestFile, in the order given.
std::vector<ValidatedManifest> ValidateManifests(const std::vector<std::string>& paths);

// kOk when every manifest is valid, else kCandidatesRejected (exit code 1).
ExitCode ExitCodeFor(const std::vector<ValidatedManifest>& manifests);

// One block per file ("<path>: valid" or "<path>: invalid, N problems", then one line per
// problem and warning) and a summary line.
void WriteManifestValidationText(std::ostream& out, const std::vector<ValidatedManifest>& manifests,
                                 bool colour);

// The JSON document (docs/sdk-info.md, "kind": "manifest_validation"), ending in a newline.
std::string ManifestValidationJson(const std::vector<ValidatedManifest>& manifests);

}  // namespace backplane::sdk_info
