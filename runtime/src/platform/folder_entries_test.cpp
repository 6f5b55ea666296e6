#include <backplane/folder_entries.hpp>

#if defined(_WIN32)
#include "platform/windows_text.hpp"
#include "platform_gaps.hpp"
#endif

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <string>
#include <vector>

namespace backplane {
namespace {

namespace fs = std::filesystem;

// A fresh folder under the system temp folder, removed at scope exit.
struct Scratch {
  fs::path folder = fs::temp_directory_path() / ("backplane-entries-" + std::to_string(std::random_device{}()));
  Scratch() { fs::create_directories(folder); }
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(folder, ignored);
  }
};

std::vector<std::string> SortedNames(const std::vector<fs::path>& entries) {
  std::vector<std::string> names;
  for (const fs::path& entry : entries) names.push_back(entry.filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST_CASE("folder entries: every file and folder but . and .., each as folder / name") {
  Scratch scratch;
  std::ofstream(scratch.folder / "a.json") << "{}";
  fs::create_directory(scratch.folder / "sub");
  std::error_code error;
  const std::vector<fs::path> entries = FolderEntries(scratch.folder, error);
  CHECK_FALSE(error);
  CHECK(SortedNames(entries) == std::vector<std::string>{"a.json", "sub"});
  for (const fs::path& entry : entries) CHECK(entry.parent_path() == scratch.folder);
}

TEST_CASE("folder entries: a folder whose path is over 260 characters lists its own entries") {
  // MinGW's directory_iterator listed the current folder instead (Windows; seen under Wine).
  Scratch scratch;
  fs::path deep = scratch.folder;
  while (deep.native().size() <= 300) deep /= "a-folder-name-of-forty-characters-------";
  fs::create_directories(deep);
  std::ofstream(deep / "only-this.json") << "{}";
  std::error_code error;
  const std::vector<fs::path> entries = FolderEntries(deep, error);
  CHECK_FALSE(error);
  REQUIRE(entries.size() == 1);
  CHECK(entries[0] == deep / "only-this.json");
}

TEST_CASE("folder entries: a missing folder is an error with no entries") {
  Scratch scratch;
  std::error_code error;
  CHECK(FolderEntries(scratch.folder / "missing", error).empty());
  CHECK(error);
}

#if defined(_WIN32)
// Windows gap (issue 42): under Wine the UNC case gives another form than \\?\UNC\server\share\...; the
// case never ran before 6b7115d (its name held a ';').
TEST_CASE("extended-length paths: only paths of MAX_PATH characters or more get the \\\\?\\ form, normalized" * doctest::skip(backplane::test_support::kWindowsGap)) {
  using platform::ExtendedLengthPath;
  CHECK(ExtendedLengthPath(fs::path(L"C:\\short\\a.dll")) == L"C:\\short\\a.dll");
  const std::wstring long_name(300, L'x');
  CHECK(ExtendedLengthPath(fs::path(L"C:/plugins/./" + long_name + L"/../a.dll")) == L"\\\\?\\C:\\plugins\\a.dll");
  CHECK(ExtendedLengthPath(fs::path(L"\\\\server\\share\\" + long_name)) ==
        L"\\\\?\\UNC\\server\\share\\" + long_name);
  CHECK(ExtendedLengthPath(fs::path(L"\\\\?\\C:\\" + long_name)) == L"\\\\?\\C:\\" + long_name);
  CHECK(ExtendedLengthPath(fs::path(L"relative\\" + long_name)) == L"relative\\" + long_name);
}
#endif

}  // namespace
}  // namespace backplane
