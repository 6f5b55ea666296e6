// Where a tool's --help sends its reader: the SDK's documentation as installed beside the tool.
#pragma once

#include <string>

namespace backplane::tools {

// "<installation>/share/doc/backplane/docs/<file>" (absolute) when that file exists relative to
// the running program (bin/../share/doc/backplane/docs/), so an installed or relocated SDK's
// --help names a file the user has. Otherwise, as in a build tree (where the man pages are made
// from --help), the phrase "docs/<file> in the SDK's documentation
// (share/doc/backplane in the installation)". Never throws; thread-safe.
std::string DocumentationPath(const std::string& file);

}  // namespace backplane::tools
