#include "staging_folder.hpp"

#include "exit_code.hpp"
#include "scratch_folder_for_tests.hpp"
#include "file_writes.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <iterator>

namespace backplane::sdk_plugin {
namespace {

std::size_t CountEntries(const fs::path& folder) {
  return static_cast<std::size_t>(std::distance(fs::directory_iterator(folder), fs::directory_iterator()));
}

TEST_CASE("a staging folder is a hidden folder removed with its contents unless moved into place") {
  ScratchFolder scratch;
  fs::path staged;
  {
    StagingFolder staging(scratch.path());
    staged = staging.path();
    CHECK(staged.parent_path() == scratch.path());
    CHECK(staged.filename().string().rfind(".staging-", 0) == 0);
    std::ofstream(staged / "Acme_Fast_backend.json") << "{}";
  }
  CHECK_FALSE(fs::exists(staged));
  CHECK(CountEntries(scratch.path()) == 0);

  const fs::path target = scratch.path() / "Acme_Fast_backend-1.0.0";
  {
    StagingFolder staging(scratch.path());
    std::ofstream(staging.path() / "Acme_Fast_backend.json") << "{}";
    staging.MoveTo(target);
  }
  CHECK(fs::exists(target / "Acme_Fast_backend.json"));
  CHECK(CountEntries(scratch.path()) == 1);

  // A target that exists is never replaced by MoveTo.
  StagingFolder again(scratch.path());
  try {
    again.MoveTo(target);
    FAIL("an existing folder was replaced");
  } catch (const ToolError& error) {
    CHECK(error.code() == ExitCode::kCannotCreate);
    CHECK(std::string(error.what()) == target.string() + " already exists");
  }
}

TEST_CASE("MoveAside renames a folder to a hidden name at once") {
  ScratchFolder scratch;
  const fs::path drop = scratch.path() / "Acme_Fast_backend-1.0.0";
  fs::create_directory(drop);
  const fs::path aside = MoveAside(drop, kRemovingPrefix);
  CHECK_FALSE(fs::exists(drop));
  CHECK(fs::is_directory(aside));
  CHECK(aside.filename().string().rfind(".removing-", 0) == 0);
}

#if !defined(_WIN32)  // the test ages folders with last_write_time, which MinGW's std::filesystem cannot set on a folder
TEST_CASE("only working folders older than the age limit are removed as leftovers") {
  ScratchFolder scratch;
  const auto two_hours_ago = fs::file_time_type::clock::now() - std::chrono::hours(2);
  for (const char* name : {".staging-old", ".old-old", ".removing-old", ".staging-new", ".hidden-old", "Acme-old"}) {
    fs::create_directory(scratch.path() / name);
    if (std::string(name).find("-old") != std::string::npos) fs::last_write_time(scratch.path() / name, two_hours_ago);
  }
  std::vector<std::string> removed = RemoveStaleWorkFolders(scratch.path());
  std::sort(removed.begin(), removed.end());
  CHECK(removed == std::vector<std::string>{(scratch.path() / ".old-old").string(),
                                            (scratch.path() / ".removing-old").string(),
                                            (scratch.path() / ".staging-old").string()});
  CHECK(fs::exists(scratch.path() / ".staging-new"));  // may belong to an install still running
  CHECK(fs::exists(scratch.path() / ".hidden-old"));   // not ours
  CHECK(fs::exists(scratch.path() / "Acme-old"));      // a drop
}

#endif

}  // namespace
}  // namespace backplane::sdk_plugin
