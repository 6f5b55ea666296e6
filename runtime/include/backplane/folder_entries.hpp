// Listing a folder, for the runtime and the tools alike. Use this, not
// std::filesystem::directory_iterator: on Windows, MinGW's directory_iterator lists the current
// folder instead of a folder whose path is MAX_PATH (260) characters or longer (seen under Wine:
// a plugin folder deep enough listed the application's working folder, the very place a planted
// DLL would sit).
#pragma once

#include <backplane/runtime_export.hpp>

#include <filesystem>
#include <system_error>
#include <vector>

namespace backplane {

// folder / name for every entry of `folder` but "." and "..", in the order the OS gives them
// (callers sort). On Windows a long path is listed through its extended-length form (\\?\);
// the paths returned are spelled as `folder` was. When the folder cannot be listed, or not to
// the end, `error` is set and the entries read so far are returned. Thread-safe; throws only
// std::bad_alloc.
BACKPLANE_RUNTIME_API std::vector<std::filesystem::path> FolderEntries(const std::filesystem::path& folder,
                                                                      std::error_code& error);

}  // namespace backplane
