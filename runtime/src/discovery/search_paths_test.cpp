#include "discovery/search_paths.hpp"

#include "platform/environment.hpp"
#include "platform/regular_file.hpp"

#include <doctest/doctest.h>

#include <cctype>
#include <filesystem>
#include <fstream>
#include <random>

namespace backplane::discovery {

namespace fs = std::filesystem;

namespace {
// A fresh folder under the system temp folder, removed at scope exit.
struct TempFolder {
  fs::path path;
  TempFolder() {
    path = fs::temp_directory_path() /
           ("backplane-search-" + std::to_string(std::random_device{}()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempFolder() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};
}  // namespace

namespace {
// This platform's list separator (';' on Windows, whose paths hold ':').
const char kSeparator = platform::PathListSeparator();
const std::string kSep(1, kSeparator);

std::vector<std::string> SourcesOf(const std::vector<SearchPath>& paths) {
  std::vector<std::string> sources;
  for (const auto& path : paths) sources.push_back(path.source);
  return sources;
}
}  // namespace

TEST_CASE("search paths: the option replaces every layer, then the environment variable does") {
  TempFolder option, environment, added, user, system, compiled, installed;
  SearchPathSources sources;
  sources.option = {option.path.string()};
  sources.environment = environment.path.string();
  sources.added = added.path.string();
  sources.user_folder = user.path.string();
  sources.system_folder = system.path.string();
  sources.compiled_in = compiled.path.string();
  sources.default_folder = installed.path.string();
  auto paths = ResolveSearchPaths(sources, kSeparator);
  REQUIRE(paths.size() == 1);
  CHECK(paths[0].source == "option");
  CHECK(paths[0].path == option.path.string());

  sources.option.clear();
  paths = ResolveSearchPaths(sources, kSeparator);
  REQUIRE(paths.size() == 1);
  CHECK(paths[0].source == "environment");
  CHECK(paths[0].path == environment.path.string());

  // The application's added folders come first, even before the variable's replacement.
  TempFolder app_added;
  sources.added_option = {app_added.path.string()};
  paths = ResolveSearchPaths(sources, kSeparator);
  CHECK(SourcesOf(paths) == std::vector<std::string>{"added", "environment"});
  sources.added_option.clear();

  // Set but empty: as if unset, so the union of the other layers is searched.
  sources.environment = kSep;
  paths = ResolveSearchPaths(sources, kSeparator);
  CHECK(SourcesOf(paths) == std::vector<std::string>{"added", "user", "system", "compiled-in", "default"});
  CHECK(paths[0].path == added.path.string());
  CHECK(paths[4].path == installed.path.string());
}

TEST_CASE("search paths: the union is added folders, user drops, system drops, compiled-in list, own folder") {
  TempFolder added1, added2, user, compiled1, compiled2, installed;
  SearchPathSources sources;
  sources.added = added1.path.string() + kSep + added2.path.string();
  sources.user_folder = user.path.string();
  sources.system_folder = (user.path / "no-such-folder").string();
  sources.compiled_in = compiled1.path.string() + kSep + compiled2.path.string();
  sources.default_folder = installed.path.string();
  const auto paths = ResolveSearchPaths(sources, kSeparator);
  CHECK(SourcesOf(paths) ==
        std::vector<std::string>{"added", "added", "user", "system", "compiled-in", "compiled-in", "default"});
  CHECK(paths[1].path == added2.path.string());
  CHECK(paths[5].path == compiled2.path.string());
  // A drop folder that was never made is normal; a missing folder of any other layer is not.
  CHECK_FALSE(paths[3].valid);
  CHECK(IsNormallyAbsent(paths[3]));
  SearchPath missing_added = paths[0];
  missing_added.valid = false;
  missing_added.reason = paths[3].reason;
  CHECK_FALSE(IsNormallyAbsent(missing_added));
  CHECK_FALSE(IsNormallyAbsent(paths[2]));  // exists
}

TEST_CASE("search paths: only the added, user and system layers hold drops") {
  for (const char* drop : {"added", "user", "system"}) CHECK(IsDropLayer(drop));
  for (const char* own : {"option", "environment", "compiled-in", "default", "static"}) CHECK_FALSE(IsDropLayer(own));
}

TEST_CASE("search paths: lists keep their order and drop empty items") {
  TempFolder a, b;
  SearchPathSources sources;
  sources.environment = a.path.string() + kSep + kSep + b.path.string() + kSep;
  const auto paths = ResolveSearchPaths(sources, kSeparator);
  REQUIRE(paths.size() == 2);
  CHECK(paths[0].path == a.path.string());
  CHECK(paths[1].path == b.path.string());
  CHECK(paths[0].valid);
  CHECK(paths[1].valid);
}

TEST_CASE("search paths: each folder is validated, invalid ones kept with a reason") {
  TempFolder a;
  const fs::path file = a.path / "plain-file";
  std::ofstream(file) << "x";
  SearchPathSources sources;
  sources.option = {"relative/folder", (a.path / "missing").string(), file.string(), a.path.string()};
  const auto paths = ResolveSearchPaths(sources, kSeparator);
  REQUIRE(paths.size() == 4);
  CHECK_FALSE(paths[0].valid);
  CHECK(paths[0].reason == "not an absolute path");
  CHECK_FALSE(paths[1].valid);
  CHECK(paths[1].reason == "does not exist");
  CHECK_FALSE(paths[2].valid);
  CHECK(paths[2].reason == "not a folder");
  CHECK(paths[3].valid);
  CHECK(paths[3].reason.empty());
}

TEST_CASE("search paths: a folder reached twice is searched once") {
  TempFolder a;
  fs::create_directories(a.path / "sub");
  SearchPathSources sources;
  sources.option = {a.path.string(), (a.path / "sub" / "..").string(), a.path.string() + "/"};
  const auto paths = ResolveSearchPaths(sources, kSeparator);
  REQUIRE(paths.size() == 3);
  CHECK(paths[0].valid);
  for (int i : {1, 2}) {
    CHECK_FALSE(paths[i].valid);
    CHECK(paths[i].reason == "same folder as " + a.path.string() + ", already searched");
  }
}

TEST_CASE("search paths: a folder named again in other letter case is searched once (Windows)" *
          doctest::skip(!platform::kFileNamesIgnoreCase)) {
  TempFolder a;
  std::string shouted = a.path.string();
  for (char& c : shouted) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  REQUIRE(shouted != a.path.string());
  SearchPathSources sources;
  sources.option = {a.path.string(), shouted};
  const auto paths = ResolveSearchPaths(sources, kSeparator);
  REQUIRE(paths.size() == 2);
  CHECK(paths[0].valid);
  CHECK_FALSE(paths[1].valid);
  CHECK(paths[1].reason == "same folder as " + a.path.string() + ", already searched");
}

TEST_CASE("search paths: no source at all gives no folder") {
  CHECK(ResolveSearchPaths(SearchPathSources{}, ':').empty());
}

}  // namespace backplane::discovery
