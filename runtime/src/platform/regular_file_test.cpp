#include "platform/regular_file.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#if !defined(_WIN32)
#include <sys/stat.h>
#endif

namespace backplane::platform {

namespace fs = std::filesystem;

namespace {

struct Scratch {
  fs::path folder = fs::temp_directory_path() /
                    ("backplane-regular-file-test-" + std::to_string(std::random_device{}()));
  Scratch() { fs::create_directories(folder); }
  ~Scratch() {
    std::error_code ignored;
    fs::remove_all(folder, ignored);
  }
};

}  // namespace

TEST_CASE("regular file: a regular file opens with its size and reads at offsets") {
  Scratch scratch;
  const fs::path file = scratch.folder / "data.bin";
  std::ofstream(file, std::ios::binary) << "0123456789";
  OpenFailure failure{};
  std::string why;
  auto opened = RegularFile::Open(file, failure, why);
  REQUIRE(opened);
  CHECK(opened->Size() == 10);
  char buffer[8] = {};
  CHECK(opened->ReadAt(6, buffer, sizeof buffer, why) == std::optional<std::size_t>(4));
  CHECK(std::string(buffer, 4) == "6789");
  CHECK(opened->ReadAt(20, buffer, sizeof buffer, why) == std::optional<std::size_t>(0));
  CHECK(IdentityOf(file) == opened->Identity());
#if !defined(_WIN32)  // MinGW's std::filesystem cannot make symlinks
  // Through a symlink: the same file.
  fs::create_symlink(file, scratch.folder / "link.bin");
  auto linked = RegularFile::Open(scratch.folder / "link.bin", failure, why);
  REQUIRE(linked);
  CHECK(linked->Identity() == opened->Identity());
#endif
}

TEST_CASE("regular file: a folder, a missing file and a symlink loop are refused, saying which") {
  Scratch scratch;
  OpenFailure failure{};
  std::string why;
  CHECK_FALSE(RegularFile::Open(scratch.folder, failure, why));
  CHECK(failure == OpenFailure::kNotRegular);
  CHECK(why == "is a folder");
  CHECK_FALSE(RegularFile::Open(scratch.folder / "missing", failure, why));
  CHECK(failure == OpenFailure::kMissing);
  CHECK_FALSE(IdentityOf(scratch.folder / "missing"));
#if !defined(_WIN32)
  fs::create_symlink(scratch.folder / "b", scratch.folder / "a");
  fs::create_symlink(scratch.folder / "a", scratch.folder / "b");
  CHECK_FALSE(RegularFile::Open(scratch.folder / "a", failure, why));
  CHECK(failure == OpenFailure::kSymlinkLoop);
#endif
}

#if !defined(_WIN32)
TEST_CASE("regular file: a FIFO with no writer and a character device are refused at once") {
  Scratch scratch;
  const fs::path fifo = scratch.folder / "pipe";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  OpenFailure failure{};
  std::string why;
  // Without O_NONBLOCK this open would wait for a writer forever.
  CHECK_FALSE(RegularFile::Open(fifo, failure, why));
  CHECK(failure == OpenFailure::kNotRegular);
  CHECK(why == "is a FIFO (named pipe)");
  CHECK_FALSE(RegularFile::Open("/dev/zero", failure, why));
  CHECK(failure == OpenFailure::kNotRegular);
  CHECK(why == "is a character device");
}
#endif

}  // namespace backplane::platform
