#include "drop_archive.hpp"

#include "exit_code.hpp"
#include "scratch_folder_for_tests.hpp"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#if BACKPLANE_SDK_PLUGIN_HAVE_LIBARCHIVE
#include <archive.h>
#include <archive_entry.h>
#endif

namespace backplane::sdk_plugin {
namespace {

namespace fs = std::filesystem;

TEST_CASE("archive names: .tar.gz, .tgz and .zip, any case") {
  CHECK(IsArchiveName("/d/Acme-1.0.tar.gz"));
  CHECK(IsArchiveName("Acme.TGZ"));
  CHECK(IsArchiveName("acme.zip"));
  CHECK_FALSE(IsArchiveName("acme.tar"));
  CHECK_FALSE(IsArchiveName("acme.tar.xz"));
  CHECK_FALSE(IsArchiveName("Acme_Fast_backend.json"));
}

#if BACKPLANE_SDK_PLUGIN_HAVE_LIBARCHIVE

// One entry of a test archive.
struct Entry {
  enum class Type { kFile, kFolder, kSymlink, kHardlink, kFifo };
  std::string path;
  Type type = Type::kFile;
  std::string content;  // a file's bytes; a link's target
  la_int64_t declared_size = -1;  // the size the header claims; -1: content's size
};

Entry File(std::string path, std::string content = "bytes") { return {std::move(path), Entry::Type::kFile, std::move(content)}; }
Entry Folder(std::string path) { return {std::move(path), Entry::Type::kFolder, ""}; }

enum class Format { kTarGz, kZip };

// Writes `entries` as an archive with libarchive's writer.
fs::path WriteArchive(const fs::path& file, const std::vector<Entry>& entries, Format format = Format::kTarGz) {
  archive* writer = archive_write_new();
  REQUIRE(writer != nullptr);
  if (format == Format::kTarGz) {
    archive_write_add_filter_gzip(writer);
    archive_write_set_format_pax_restricted(writer);
  } else {
    archive_write_set_format_zip(writer);
  }
  REQUIRE(archive_write_open_filename(writer, file.string().c_str()) == ARCHIVE_OK);
  for (const Entry& spec : entries) {
    archive_entry* entry = archive_entry_new();
    archive_entry_set_pathname(entry, spec.path.c_str());
    archive_entry_set_perm(entry, 0644);
    switch (spec.type) {
      case Entry::Type::kFile:
        archive_entry_set_filetype(entry, AE_IFREG);
        archive_entry_set_size(entry, spec.declared_size >= 0 ? spec.declared_size
                                                              : static_cast<la_int64_t>(spec.content.size()));
        break;
      case Entry::Type::kFolder:
        archive_entry_set_filetype(entry, AE_IFDIR);
        archive_entry_set_perm(entry, 0755);
        break;
      case Entry::Type::kSymlink:
        archive_entry_set_filetype(entry, AE_IFLNK);
        archive_entry_set_symlink(entry, spec.content.c_str());
        break;
      case Entry::Type::kHardlink:
        archive_entry_set_filetype(entry, AE_IFREG);
        archive_entry_set_hardlink(entry, spec.content.c_str());
        break;
      case Entry::Type::kFifo:
        archive_entry_set_filetype(entry, AE_IFIFO);
        break;
    }
    REQUIRE_MESSAGE(archive_write_header(writer, entry) == ARCHIVE_OK, archive_error_string(writer));
    if (spec.type == Entry::Type::kFile && !spec.content.empty()) {
      archive_write_data(writer, spec.content.data(), spec.content.size());
    }
    archive_entry_free(entry);
  }
  archive_write_close(writer);
  archive_write_free(writer);
  return file;
}

// The ToolError's message from listing `archive`; fails the check when listing succeeds.
std::string RejectionOf(const fs::path& archive, const ArchiveLimits& limits = {}) {
  try {
    ListDropArchive(archive, limits);
  } catch (const ToolError& error) {
    CHECK(error.code() == ExitCode::kRejected);
    return error.what();
  }
  FAIL_CHECK("the archive was accepted: " << archive);
  return "";
}

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

const std::vector<DropFile> kAcmeFiles = DropFilesFor("Acme_Fast_backend.json", "Acme_Fast_backend.so");

TEST_CASE("a drop's files at the top level, under one folder or under ./ are listed and extracted") {
  ScratchFolder scratch;
  const std::vector<std::vector<Entry>> layouts = {
      {File("Acme_Fast_backend.json", "{}"), File("Acme_Fast_backend.so", "ELF"), File("README", "hi")},
      {Folder("Acme-1.0/"), File("Acme-1.0/Acme_Fast_backend.json", "{}"), File("Acme-1.0/Acme_Fast_backend.so", "ELF"),
       File("Acme-1.0/README", "hi")},
      {Folder("./"), File("./Acme_Fast_backend.json", "{}"), File("./Acme_Fast_backend.so", "ELF"),
       File("./README", "hi")},
  };
  for (std::size_t i = 0; i < layouts.size(); ++i) {
    for (const Format format : {Format::kTarGz, Format::kZip}) {
      CAPTURE(i);
      CAPTURE(format == Format::kZip);
      const fs::path archive = WriteArchive(
          scratch.path() / ("drop" + std::to_string(i) + (format == Format::kZip ? ".zip" : ".tar.gz")), layouts[i],
          format);
      CHECK(ListDropArchive(archive) ==
            std::vector<std::string>{"Acme_Fast_backend.json", "Acme_Fast_backend.so", "README"});

      const fs::path into = scratch.path() / ("out" + std::to_string(i) + (format == Format::kZip ? "z" : "t"));
      fs::create_directory(into);
      const std::vector<std::string> extracted = ExtractFromDropArchive(archive, kAcmeFiles, into);
      CHECK(extracted == std::vector<std::string>{"Acme_Fast_backend.json", "Acme_Fast_backend.so"});
      CHECK(ReadAll(into / "Acme_Fast_backend.json") == "{}");
      CHECK(ReadAll(into / "Acme_Fast_backend.so") == "ELF");
      CHECK_FALSE(fs::exists(into / "README"));  // not part of the drop: not extracted
      const fs::perms mask = fs::perms::all;
      CHECK((fs::status(into / "Acme_Fast_backend.json").permissions() & mask) ==
            (fs::perms::owner_read | fs::perms::owner_write | fs::perms::group_read | fs::perms::others_read));
      CHECK((fs::status(into / "Acme_Fast_backend.so").permissions() & mask) ==
            (fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read |
             fs::perms::others_exec));
    }
  }
}

TEST_CASE("entries that could escape the folder or are not regular files reject the whole archive") {
  ScratchFolder scratch;
  struct Case {
    const char* name;
    std::vector<Entry> entries;
    const char* message;
  };
  const Case cases[] = {
      {"dot-dot", {File("Acme_Fast_backend.json"), File("../evil.so")}, "entry '../evil.so' has '..' in its path"},
      {"dot-dot inside", {File("Acme/../../evil.so")}, "entry 'Acme/../../evil.so' has '..' in its path"},
      {"absolute", {File("/etc/evil.so")}, "entry '/etc/evil.so' has an absolute path"},
      {"symlink",
       {File("Acme_Fast_backend.json"), {"Acme_Fast_backend.so", Entry::Type::kSymlink, "/usr/lib/libc.so.6"}},
       "entry 'Acme_Fast_backend.so' is a symbolic link; a drop holds regular files only"},
      {"hard link",
       {File("Acme_Fast_backend.json"), {"Acme_Fast_backend.so", Entry::Type::kHardlink, "Acme_Fast_backend.json"}},
       "entry 'Acme_Fast_backend.so' is a hard link"},
      {"fifo", {{"pipe", Entry::Type::kFifo, ""}}, "entry 'pipe' is a FIFO; a drop holds regular files only"},
      {"too deep", {File("Acme/lib/Acme_Fast_backend.so")}, "entry 'Acme/lib/Acme_Fast_backend.so' lies more than one folder deep"},
      {"nested folder", {Folder("Acme/"), Folder("Acme/lib/")}, "entry 'Acme/lib/' is a folder inside a folder"},
      {"two folders",
       {File("Acme/Acme_Fast_backend.json"), File("Other/Acme_Fast_backend.so")},
       "has files in several places ('Acme', 'Other')"},
      {"top level and a folder",
       {File("Acme_Fast_backend.json"), File("Acme/Acme_Fast_backend.so")},
       "has files in several places (the top level, 'Acme')"},
      {"twice", {File("Acme/x"), File("Acme/./x")}, "holds 'x' twice"},
  };
  for (const Case& test : cases) {
    const std::string name = test.name;
    CAPTURE(name);
    const fs::path archive = WriteArchive(scratch.path() / (std::string(test.name) + ".tar.gz"), test.entries);
    const std::string message = RejectionOf(archive);
    const bool names_the_archive = Contains(message, archive.string() + ": ") || Contains(message, archive.string() + " ");
    CHECK_MESSAGE(names_the_archive, message);
    CHECK_MESSAGE(Contains(message, test.message), message);
    // Extraction applies the same rules: it fails too, and writes nothing outside its folder
    // and nothing but the drop's own files (the caller removes the folder on failure).
    const fs::path into = scratch.path() / (std::string(test.name) + "-out");
    fs::create_directory(into);
    CHECK_THROWS_AS(ExtractFromDropArchive(archive, kAcmeFiles, into), ToolError);
    CHECK_FALSE(fs::exists(scratch.path() / "evil.so"));
    CHECK_FALSE(fs::exists(into / "evil.so"));
    for (const fs::directory_entry& entry : fs::directory_iterator(into)) {
      CHECK(entry.path().filename() == "Acme_Fast_backend.json");
    }
  }
}

TEST_CASE("a symlink in a zip archive is refused too") {
  ScratchFolder scratch;
  const fs::path archive = WriteArchive(
      scratch.path() / "drop.zip",
      {File("Acme_Fast_backend.json"), {"Acme_Fast_backend.so", Entry::Type::kSymlink, "/etc/passwd"}}, Format::kZip);
  CHECK(Contains(RejectionOf(archive), "entry 'Acme_Fast_backend.so' is a symbolic link"));
}

TEST_CASE("two manifests in one archive: the drop is refused, naming both") {
  ScratchFolder scratch;
  const fs::path archive = WriteArchive(scratch.path() / "two.tgz",
                                        {File("Acme_Fast_backend.json"), File("Acme_Slow_backend.json"),
                                         File("Acme_Fast_backend.so")});
  const std::vector<std::string> names = ListDropArchive(archive);
  try {
    FindTheManifest(names, archive.string());
    FAIL("two manifests were accepted");
  } catch (const ToolError& error) {
    CHECK(error.code() == ExitCode::kRejected);
    CHECK(std::string(error.what()) == archive.string() +
                                           " holds 2 backend manifests (Acme_Fast_backend.json, "
                                           "Acme_Slow_backend.json); a drop holds exactly one backend");
  }
}

TEST_CASE("the entry count and the file size are capped") {
  ScratchFolder scratch;
  ArchiveLimits limits;
  limits.max_entries = 3;
  limits.max_file_bytes = 10;
  const fs::path many = WriteArchive(scratch.path() / "many.tgz", {File("a"), File("b"), File("c"), File("d")});
  CHECK(Contains(RejectionOf(many, limits), "has more than 3 entries"));
  const fs::path big = WriteArchive(scratch.path() / "big.tgz", {File("Acme_Fast_backend.so", std::string(11, 'x'))});
  CHECK(Contains(RejectionOf(big, limits), "entry 'Acme_Fast_backend.so' is 11 bytes, more than the limit of 10"));
  const fs::path fits = WriteArchive(scratch.path() / "fits.tgz", {File("Acme_Fast_backend.so", std::string(10, 'x'))});
  CHECK(ListDropArchive(fits, limits) == std::vector<std::string>{"Acme_Fast_backend.so"});
  // The default limits: 64 entries, 1 GiB per file.
  CHECK(ArchiveLimits{}.max_entries == 64);
  CHECK(ArchiveLimits{}.max_file_bytes == (std::uint64_t{1} << 30));
}

TEST_CASE("a file that is not an archive, or is missing, says so") {
  ScratchFolder scratch;
  const fs::path junk = scratch.path() / "junk.tar.gz";
  std::ofstream(junk) << "this is not a gzip stream";
  CHECK(Contains(RejectionOf(junk), junk.string()));
  try {
    ListDropArchive(scratch.path() / "missing.zip");
    FAIL("a missing archive was read");
  } catch (const ToolError& error) {
    CHECK(error.code() == ExitCode::kInputMissing);
    CHECK(Contains(error.what(), "missing.zip"));
  }
}

#else

TEST_CASE("without libarchive, archives are refused with a clear message") {
  CHECK_FALSE(ArchivesSupported());
  try {
    ListDropArchive("/d/acme.tgz");
    FAIL("an archive was read without libarchive");
  } catch (const ToolError& error) {
    CHECK(error.code() == ExitCode::kUsage);
    CHECK(std::string(error.what()).find("built without libarchive") != std::string::npos);
  }
}

#endif

}  // namespace
}  // namespace backplane::sdk_plugin
