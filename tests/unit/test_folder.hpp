// A throw-away backend folder for one test: a uniquely named folder under the system's temporary
// folder, removed with its contents in the destructor. Tests put copies of test plugins into it
// under the file names a case needs, write manifests (valid by default, overridden per test),
// arbitrary files and symlinks.
#pragma once

#include "temp_folder.hpp"
#include "test_plugin.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <string>

namespace backplane::unit {

// Whether tests can make symbolic links: MinGW's std::filesystem cannot (and Windows needs a
// privilege for them), so the cases about symlinks are skipped in Windows builds.
// Whether file names ignore letter case (Windows, and Wine's view of a POSIX file system), for
// the cases about names that differ only in case.
#if defined(_WIN32)
inline constexpr bool kSymlinksInTests = false;
inline constexpr bool kNamesIgnoreCase = true;
#else
inline constexpr bool kSymlinksInTests = true;
inline constexpr bool kNamesIgnoreCase = false;
#endif

namespace fs = std::filesystem;

// Lets every user of the machine write `path`: POSIX o+w; on Windows an ACE that allows Everyone
// FILE_GENERIC_WRITE (Wine turns it into o+w, and back). Throws std::system_error on failure.
void MakeWritableByEveryone(const fs::path& path);

// "<vendor>_<name>_backend" plus this platform's library suffix (".so", ".dll", ".dylib").
std::string LibraryFileName(const std::string& vendor, const std::string& name);
// "<vendor>_<name>_backend.json".
std::string ManifestFileName(const std::string& vendor, const std::string& name);

// A valid format-1.0 manifest for `plugin` whose library file is `library_file`: id, vendor,
// version and api_version are what the plugin was built with; platform and abi are this
// build's BACKPLANE_PLATFORM_TAG and BACKPLANE_ABI_TAG; capabilities are what the test backend
// reports. Tests edit the returned value to make it invalid.
nlohmann::json DefaultManifest(const TestPlugin& plugin, const std::string& library_file);

class TestFolder {
 public:
  // Creates the folder (test_support::TempFolder: canonical, removed with everything in it when
  // the object goes); throws fs::filesystem_error when it cannot.
  TestFolder();

  const fs::path& path() const { return folder_.path(); }
  // path() / relative.
  // `relative` under the folder, with this platform's separators ("plugins/a.dll" gives
  // plugins\a.dll on Windows), as the runtime reports paths.
  fs::path operator/(const fs::path& relative) const { return (path() / relative).make_preferred(); }

  // Creates (if needed) and returns the subfolder `relative`.
  fs::path MakeFolder(const fs::path& relative) const;

  // Copies the plugin's library to `relative` (a file name or sub/file name). Returns the copy.
  fs::path AddLibrary(const TestPlugin& plugin, const fs::path& relative) const;

  // Writes `manifest` (dumped as JSON) to `relative`. Returns the file.
  fs::path WriteManifest(const fs::path& relative, const nlohmann::json& manifest) const;

  // The usual layout: the plugin as LibraryFileName(vendor, name) and, beside it,
  // ManifestFileName(vendor, name) holding DefaultManifest after `edit` changed it.
  // Returns the manifest's path.
  fs::path AddPluginWithManifest(const TestPlugin& plugin, const std::string& vendor,
                                 const std::string& name,
                                 const std::function<void(nlohmann::json&)>& edit = {}) const;

  // Writes `contents` verbatim to `relative`. Returns the file.
  fs::path WriteFile(const fs::path& relative, const std::string& contents) const;

  // Creates the symlink `relative` pointing at `target` (used as given: relative targets are
  // resolved from the link's folder). Returns the link.
  fs::path Symlink(const fs::path& relative, const fs::path& target) const;

  // Creates a FIFO (named pipe) at `relative`. Returns it. Throws std::runtime_error where the
  // platform has no FIFOs in the file system (Windows); tests using it are POSIX-only.
  fs::path Fifo(const fs::path& relative) const;

 private:
  test_support::TempFolder folder_;
};

// The library file's SHA-256, 64 lower-case hex digits (computed with OpenSSL).
std::string Sha256OfFile(const fs::path& file);

}  // namespace backplane::unit
