// Which folders to search for plugins, in which order, and whether each is usable.
#pragma once

#include <backplane/discovery_report.hpp>

#include <optional>
#include <string>
#include <vector>

namespace backplane::discovery {

// The inputs of the precedence rule, gathered by the runtime so this stays a pure function.
struct SearchPathSources {
  std::vector<std::string> option;          // RuntimeOptions::backend_paths
  std::optional<std::string> environment;   // BACKPLANE_BACKEND_PATHS, as read
  std::string compiled_in;                  // BACKPLANE_DYNAMIC_BACKEND_PATHS, as compiled
  std::string default_folder;               // <runtime library folder>/backplane/backends
};

// The first non-empty source wins: option, else environment, else compiled-in, else default.
// List-valued strings are split on `separator`; empty items are dropped. Every folder is
// checked (absolute, exists, is a folder) and returned with valid/reason. Never throws for a
// bad path.
std::vector<SearchPath> ResolveSearchPaths(const SearchPathSources& sources, char separator);

// Checks one folder. Returns an empty string when usable, else why not.
std::string CheckSearchFolder(const std::string& path);

}  // namespace backplane::discovery
