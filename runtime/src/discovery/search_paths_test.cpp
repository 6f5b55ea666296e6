#include "discovery/search_paths.hpp"

#include <doctest/doctest.h>

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

TEST_CASE("search paths: the first non-empty source wins, in precedence order") {
  TempFolder a, b, c, d;
  SearchPathSources sources{{a.path.string()}, b.path.string(), c.path.string(), d.path.string()};
  auto paths = ResolveSearchPaths(sources, ':');
  REQUIRE(paths.size() == 1);
  CHECK(paths[0].source == "option");
  CHECK(paths[0].path == a.path.string());

  sources.option.clear();
  paths = ResolveSearchPaths(sources, ':');
  REQUIRE(paths.size() == 1);
  CHECK(paths[0].source == "environment");

  sources.environment = "";  // set but empty: ignored
  paths = ResolveSearchPaths(sources, ':');
  REQUIRE(paths.size() == 1);
  CHECK(paths[0].source == "compiled-in");

  sources.compiled_in.clear();
  paths = ResolveSearchPaths(sources, ':');
  REQUIRE(paths.size() == 1);
  CHECK(paths[0].source == "default");
  CHECK(paths[0].path == d.path.string());
}

TEST_CASE("search paths: lists keep their order and drop empty items") {
  TempFolder a, b;
  SearchPathSources sources;
  sources.environment = a.path.string() + "::" + b.path.string() + ":";
  const auto paths = ResolveSearchPaths(sources, ':');
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
  const auto paths = ResolveSearchPaths(sources, ':');
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
  const auto paths = ResolveSearchPaths(sources, ':');
  REQUIRE(paths.size() == 3);
  CHECK(paths[0].valid);
  for (int i : {1, 2}) {
    CHECK_FALSE(paths[i].valid);
    CHECK(paths[i].reason == "same folder as " + a.path.string() + ", already searched");
  }
}

TEST_CASE("search paths: no source at all gives no folder") {
  CHECK(ResolveSearchPaths(SearchPathSources{}, ':').empty());
}

}  // namespace backplane::discovery
