#include "file_writes.hpp"

#include "scratch_folder_for_tests.hpp"

#include <doctest/doctest.h>

#include <fstream>
#include <iterator>
#include <random>

namespace backplane::sdk_plugin {
namespace {

[[maybe_unused]] fs::perms ModeOf(const fs::path& path) { return fs::status(path).permissions() & fs::perms::all; }

TEST_CASE("a new file is created exclusively, with its mode, and removed unless closed") {
  ScratchFolder scratch;
  const fs::path key = scratch.path() / "vendor.key";
  WriteNewFile(key, "secret", kPrivateMode);
  CHECK(ReadAll(key) == "secret");
#if !defined(_WIN32)
  CHECK(ModeOf(key) == (fs::perms::owner_read | fs::perms::owner_write));
#endif
  try {
    WriteNewFile(key, "other", kFileMode);
    FAIL("an existing file was overwritten");
  } catch (const ToolError& error) {
    CHECK(error.code() == ExitCode::kCannotCreate);
    CHECK(std::string(error.what()) == key.string() + " already exists");
  }
  CHECK(ReadAll(key) == "secret");

  const fs::path abandoned = scratch.path() / "abandoned";
  {
    NewFile file(abandoned, kFileMode);
    file.Write("half", 4);
  }
  CHECK_FALSE(fs::exists(abandoned));

  try {
    WriteNewFile(scratch.path() / "no-such-folder" / "file", "x", kFileMode);
    FAIL("a file was created in a folder that does not exist");
  } catch (const ToolError& error) {
    CHECK(error.code() == ExitCode::kCannotCreate);
  }
}

TEST_CASE("ReplaceFile swaps the whole file and leaves no temporary behind") {
  ScratchFolder scratch;
  const fs::path file = scratch.path() / "key.json";
  ReplaceFile(file, "first", kFileMode);
  ReplaceFile(file, "second", kFileMode);
  CHECK(ReadAll(file) == "second");
  CHECK(std::distance(fs::directory_iterator(scratch.path()), fs::directory_iterator()) == 1);
#if !defined(_WIN32)
  CHECK(ModeOf(file) == kFileMode);
#endif
}

TEST_CASE("CreateFolder makes the missing folders with mode 0755 and refuses a file in the way") {
  ScratchFolder scratch;
  const fs::path folder = scratch.path() / "a" / "b";
  CreateFolder(folder);
  CHECK(fs::is_directory(folder));
#if !defined(_WIN32)
  CHECK(ModeOf(folder) == kExecutableMode);
  CHECK(ModeOf(scratch.path() / "a") == kExecutableMode);
#endif
  CreateFolder(folder);  // there already: nothing happens
  std::ofstream(scratch.path() / "file") << "x";
  CHECK_THROWS_AS(CreateFolder(scratch.path() / "file"), ToolError);
}

TEST_CASE("file-system errors: refused access is 77, anything else the caller's code") {
  const ToolError denied =
      FileSystemError("cannot create /x", std::make_error_code(std::errc::permission_denied), ExitCode::kCannotCreate);
  CHECK(denied.code() == ExitCode::kPermissionDenied);
  CHECK(std::string(denied.what()).rfind("cannot create /x: ", 0) == 0);
  CHECK(FileSystemError("x", std::make_error_code(std::errc::operation_not_permitted), ExitCode::kCannotCreate).code() ==
        ExitCode::kPermissionDenied);
  CHECK(FileSystemError("x", std::make_error_code(std::errc::no_space_on_device), ExitCode::kCannotCreate).code() ==
        ExitCode::kCannotCreate);
}

TEST_CASE("random suffixes are 16 hex digits") {
  const std::string suffix = RandomSuffix();
  CHECK(suffix.size() == 16);
  CHECK(suffix.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(RandomSuffix() != suffix);
}

}  // namespace
}  // namespace backplane::sdk_plugin
