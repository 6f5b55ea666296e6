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

// A scratch folder with data.bin, which holds "0123456789", opened.
struct TenDigits {
  static std::optional<RegularFile> Open(const fs::path& file) {
    std::ofstream(file, std::ios::binary) << "0123456789";
    OpenFailure failure{};
    std::string why;
    return RegularFile::Open(file, failure, why);
  }
  Scratch scratch;
  fs::path file = scratch.folder / "data.bin";
  std::optional<RegularFile> opened = Open(file);
  std::string why;
};

}  // namespace

TEST_CASE_FIXTURE(TenDigits, "regular file: a regular file opens with its size and reads at offsets") {
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
  OpenFailure failure{};
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

// What the trust policy require maps (docs/backend-discovery.md section 8): the bytes read through the
// handle, which no one may change once pinned, not even the file's owner.
TEST_CASE_FIXTURE(TenDigits, "regular file: a pinned image keeps the bytes it was made of while the file changes") {
  REQUIRE(opened);
  auto pinned = opened->Pin(file, 1 << 20, why);
#if defined(__linux__) || defined(_WIN32)
  REQUIRE_MESSAGE(pinned, why);
  CHECK(pinned->file.Size() == 10);
  // The file rewritten in place (Windows: refused while it is pinned), and the image written
  // to through the loader's name: neither reaches what the loader would map.
  { std::ofstream(file, std::ios::binary | std::ios::in | std::ios::out) << "ABCD"; }
  {
    std::ofstream writer(pinned->loader_path, std::ios::binary | std::ios::in | std::ios::out);
    writer << "WXYZ";
    writer.flush();
    CHECK_FALSE(writer.good());
  }
  char buffer[16] = {};
  CHECK(pinned->file.ReadAt(0, buffer, sizeof buffer, why) == std::optional<std::size_t>(10));
  CHECK(std::string(buffer, 10) == "0123456789");
  CHECK(IdentityOf(pinned->loader_path) == pinned->file.Identity());
#if defined(__linux__)
  CHECK(pinned->file.Identity() != opened->Identity());  // a copy
  CHECK(pinned->loader_path.string().rfind("/proc/self/fd/", 0) == 0);
  // A file that is (or grows) larger than the bound is not copied whole.
  CHECK_FALSE(opened->Pin(file, 4, why));
  CHECK(why == "is larger than 4 bytes, the most a library may have under this policy");
#else
  CHECK(pinned->loader_path == file);  // the file itself, held against writes, renames and deletion
  std::error_code error;
  fs::rename(file, scratch.folder / "moved.bin", error);
  CHECK(error);
#endif
#else
  CHECK_FALSE(pinned);
  CHECK(why == "cannot be pinned for the loader on this platform (no sealed memfd)");
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
