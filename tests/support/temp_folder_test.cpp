// TempFolder: a new folder per object, even for one prefix, and nothing left of it afterwards.
#include "temp_folder.hpp"

#include <doctest/doctest.h>

#include <fstream>

namespace fs = std::filesystem;
using backplane::test_support::TempFolder;

TEST_CASE("temp folder: a fresh, canonical folder per object, removed with its contents") {
  fs::path first_path, second_path;
  {
    const TempFolder first("support-test");
    const TempFolder second("support-test");
    first_path = first.path();
    second_path = second.path();
    CHECK(first_path != second_path);
    CHECK(fs::is_directory(first_path));
    CHECK(fs::is_empty(first_path));
    CHECK(first_path == fs::canonical(first_path));
    CHECK(first_path.filename().string().rfind("backplane-support-test-", 0) == 0);
    fs::create_directories(first_path / "sub");
    std::ofstream(first_path / "sub" / "file.txt") << "contents";
  }
  CHECK_FALSE(fs::exists(first_path));
  CHECK_FALSE(fs::exists(second_path));
}
