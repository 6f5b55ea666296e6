// Which folders to search for plugins, in which order, from which source (the search layers,
// docs/backend-discovery.md §1), and whether each is usable.
#pragma once

#include <backplane/discovery_report.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace backplane::discovery {

// The names of the sources, as SearchPath::source and sdk-info show them.
inline constexpr const char* kSourceOption = "option";             // RuntimeOptions::backend_paths
inline constexpr const char* kSourceEnvironment = "environment";   // BACKPLANE_BACKEND_PATHS
inline constexpr const char* kSourceAdded = "added";               // BACKPLANE_ADD_BACKEND_PATHS
inline constexpr const char* kSourceUser = "user";                 // the user's drop folder
inline constexpr const char* kSourceSystem = "system";             // the system drop folder
inline constexpr const char* kSourceCompiledIn = "compiled-in";    // BACKPLANE_DYNAMIC_BACKEND_PATHS
inline constexpr const char* kSourceDefault = "default";           // the installation's own folder

// The inputs of the precedence rule, gathered by the runtime so this stays a pure function.
struct SearchPathSources {
  std::vector<std::string> option;          // RuntimeOptions::backend_paths
  std::optional<std::string> environment;   // BACKPLANE_BACKEND_PATHS, as read
  std::vector<std::string> added_option;    // RuntimeOptions::add_backend_paths
  std::optional<std::string> added;         // BACKPLANE_ADD_BACKEND_PATHS, as read
  std::string user_folder;                  // <user data folder>/backplane/backends, or ""
  std::string system_folder;                // the system drop folder, or ""
  std::string compiled_in;                  // BACKPLANE_DYNAMIC_BACKEND_PATHS, as compiled
  std::string default_folder;               // <runtime library folder>/backplane/backends
};

// The layers, in search order: the option alone when it is non-empty; else the application's
// added folders (added_option) and then the environment variable's folders when it names one;
// else the union of the added folders (the application's, then the variable's), the user's drop
// folder, the system drop folder, the compiled-in list and the default folder. List-valued
// strings are split on `separator`; empty items are dropped. Every folder is checked
// (absolute, exists, is a folder, not the same as an earlier one) and returned with
// valid/reason. Never throws for a bad path.
std::vector<SearchPath> ResolveSearchPaths(const SearchPathSources& sources, char separator);

// True for the layers that hold drops (added, user, system): folders that third parties fill,
// as opposed to the SDK's own and the ones the application or its caller chose outright.
bool IsDropLayer(const std::string& source);

// True when `path` is a drop folder (user, system) that does not exist: normal, since they
// exist only once something was dropped there, so not worth a warning. ResolveSearchPaths sets
// SearchPath::normally_absent from it.
bool IsNormallyAbsent(const SearchPath& path);

// Checks one folder. Returns an empty string when usable, else why not.
std::string CheckSearchFolder(const std::filesystem::path& folder);

}  // namespace backplane::discovery
