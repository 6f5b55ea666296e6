#include "drop_archive.hpp"

#include "exit_code.hpp"
#include "file_writes.hpp"

#include <backplane/path_text.hpp>

#include <algorithm>
#include <cctype>
#include <functional>
#include <memory>
#include <set>

#if BACKPLANE_SDK_PLUGIN_HAVE_LIBARCHIVE
#include <archive.h>
#include <archive_entry.h>
#endif

namespace backplane::sdk_plugin {

namespace fs = std::filesystem;

namespace {

bool EndsWith(const std::string& text, const std::string& suffix) {
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

bool IsArchiveName(const fs::path& path) {
  std::string name = PathToUtf8(path.filename());
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return EndsWith(name, ".tar.gz") || EndsWith(name, ".tgz") || EndsWith(name, ".zip");
}

#if BACKPLANE_SDK_PLUGIN_HAVE_LIBARCHIVE

namespace {

struct ArchiveCloser {
  void operator()(archive* reader) const { archive_read_free(reader); }
};
using ArchiveReader = std::unique_ptr<archive, ArchiveCloser>;

// An entry's path, checked: the folder it is under ("" at the top level) and its plain name.
struct EntryPath {
  std::string folder;
  std::string name;  // "" for the top-level folder entry itself ("./", "Acme-1.2/")
};

std::string Quoted(const std::string& text) { return "'" + text + "'"; }

// Splits and checks an entry's path against the rules. `is_folder`: a folder entry, which may
// name the top level or one top-level folder only.
EntryPath CheckEntryPath(const std::string& archive_name, const std::string& path, bool is_folder) {
  const auto reject = [&](const std::string& why) {
    return ToolError(ExitCode::kRejected, archive_name + ": entry " + Quoted(path) + " " + why);
  };
  if (path.empty()) throw reject("has an empty path");
  if (path.front() == '/' || (path.size() >= 2 && path[1] == ':')) throw reject("has an absolute path");
  if (path.find('\\') != std::string::npos) throw reject("has a backslash in its path");
  std::vector<std::string> parts;
  std::size_t begin = 0;
  while (begin <= path.size()) {
    std::size_t end = path.find('/', begin);
    if (end == std::string::npos) end = path.size();
    const std::string part = path.substr(begin, end - begin);
    if (part == "..") throw reject("has '..' in its path");
    if (!part.empty() && part != ".") parts.push_back(part);
    begin = end + 1;
  }
  if (is_folder) {
    if (parts.size() > 1) throw reject("is a folder inside a folder: a drop's files lie at the top level or in one folder");
    return {parts.empty() ? "" : parts[0], ""};
  }
  if (parts.empty()) throw reject("names no file");
  if (parts.size() > 2) throw reject("lies more than one folder deep: a drop's files lie at the top level or in one folder");
  return parts.size() == 1 ? EntryPath{"", parts[0]} : EntryPath{parts[0], parts[1]};
}

const char* TypeName(unsigned int type) {
  switch (type) {
    case AE_IFLNK: return "a symbolic link";
    case AE_IFSOCK: return "a socket";
    case AE_IFCHR: return "a character device";
    case AE_IFBLK: return "a block device";
    case AE_IFIFO: return "a FIFO";
    default: return "not a regular file";
  }
}

// Reads every entry of `archive_path`, checks it, and calls `on_file` for each regular file with
// its plain name (the reader is positioned at its data). Throws ToolError as documented.
void ForEachFile(const fs::path& archive_path, const ArchiveLimits& limits,
                 const std::function<void(archive*, archive_entry*, const std::string&)>& on_file) {
  const std::string archive_name = PathToUtf8(archive_path);
  ArchiveReader reader(archive_read_new());
  if (!reader) throw ToolError(ExitCode::kInternal, "libarchive could not make a reader");
  archive_read_support_filter_gzip(reader.get());
  archive_read_support_format_tar(reader.get());
  archive_read_support_format_zip(reader.get());
#if defined(_WIN32)
  const int opened = archive_read_open_filename_w(reader.get(), archive_path.c_str(), 64 * 1024);
#else
  const int opened = archive_read_open_filename(reader.get(), archive_path.c_str(), 64 * 1024);
#endif
  if (opened != ARCHIVE_OK) {
    std::error_code error;
    const bool exists = fs::exists(archive_path, error);
    const char* text = archive_error_string(reader.get());
    throw ToolError(exists ? ExitCode::kRejected : ExitCode::kInputMissing,
                    "cannot open the archive " + archive_name + ": " + (text != nullptr ? text : "unknown error"));
  }
  std::size_t entries = 0;
  std::set<std::string> names;
  std::set<std::string> top_level;  // "" for files at the top level
  archive_entry* entry = nullptr;
  for (;;) {
    const int status = archive_read_next_header(reader.get(), &entry);
    if (status == ARCHIVE_EOF) break;
    if (status != ARCHIVE_OK && status != ARCHIVE_WARN) {
      const char* text = archive_error_string(reader.get());
      throw ToolError(ExitCode::kRejected,
                      archive_name + " cannot be read: " + (text != nullptr ? text : "unknown error"));
    }
    if (++entries > limits.max_entries) {
      throw ToolError(ExitCode::kRejected, archive_name + " has more than " + std::to_string(limits.max_entries) +
                                               " entries; a drop needs at most four files");
    }
    const char* raw_path = archive_entry_pathname(entry);
    const std::string path = raw_path != nullptr ? raw_path : "";
    if (archive_entry_hardlink(entry) != nullptr) {
      throw ToolError(ExitCode::kRejected, archive_name + ": entry " + Quoted(path) + " is a hard link");
    }
    const unsigned int type = archive_entry_filetype(entry);
    if (type != AE_IFREG && type != AE_IFDIR) {
      throw ToolError(ExitCode::kRejected, archive_name + ": entry " + Quoted(path) + " is " + TypeName(type) +
                                               "; a drop holds regular files only");
    }
    const EntryPath checked = CheckEntryPath(archive_name, path, type == AE_IFDIR);
    if (type == AE_IFDIR) {
      if (!checked.folder.empty()) top_level.insert(checked.folder);
    } else {
      top_level.insert(checked.folder);
      if (!names.insert(checked.name).second) {
        throw ToolError(ExitCode::kRejected, archive_name + " holds " + Quoted(checked.name) + " twice");
      }
      if (archive_entry_size_is_set(entry) != 0 && archive_entry_size(entry) >= 0 &&
          static_cast<std::uint64_t>(archive_entry_size(entry)) > limits.max_file_bytes) {
        throw ToolError(ExitCode::kRejected, archive_name + ": entry " + Quoted(path) + " is " +
                                                 std::to_string(archive_entry_size(entry)) +
                                                 " bytes, more than the limit of " +
                                                 std::to_string(limits.max_file_bytes));
      }
    }
    if (top_level.size() > 1) {
      std::string listed;
      for (const std::string& folder : top_level) {
        listed += (listed.empty() ? "" : ", ") + (folder.empty() ? std::string("the top level") : Quoted(folder));
      }
      throw ToolError(ExitCode::kRejected, archive_name + " has files in several places (" + listed +
                                               "); a drop's files lie at the top level or in one folder");
    }
    if (type == AE_IFREG) on_file(reader.get(), entry, checked.name);
  }
}

}  // namespace

bool ArchivesSupported() { return true; }

std::vector<std::string> ListDropArchive(const fs::path& archive_path, const ArchiveLimits& limits) {
  std::vector<std::string> names;
  ForEachFile(archive_path, limits,
              [&](archive*, archive_entry*, const std::string& name) { names.push_back(name); });
  return names;
}

std::vector<std::string> ExtractFromDropArchive(const fs::path& archive_path, const std::vector<DropFile>& wanted,
                                                const fs::path& folder, const ArchiveLimits& limits) {
  std::vector<std::string> extracted;
  ForEachFile(archive_path, limits, [&](archive* reader, archive_entry*, const std::string& name) {
    const auto file = std::find_if(wanted.begin(), wanted.end(), [&](const DropFile& f) { return f.name == name; });
    if (file == wanted.end()) return;
    NewFile out(folder / PathFromUtf8(name), file->executable ? kExecutableMode : kFileMode);
    std::uint64_t total = 0;
    char buffer[64 * 1024];
    for (;;) {
      const la_ssize_t count = archive_read_data(reader, buffer, sizeof buffer);
      if (count == 0) break;
      if (count < 0) {
        const char* text = archive_error_string(reader);
        throw ToolError(ExitCode::kRejected, PathToUtf8(archive_path) + ": entry '" + name + "' cannot be read: " +
                                                 (text != nullptr ? text : "unknown error"));
      }
      total += static_cast<std::uint64_t>(count);
      if (total > limits.max_file_bytes) {
        throw ToolError(ExitCode::kRejected, PathToUtf8(archive_path) + ": entry '" + name +
                                                 "' is more than the limit of " +
                                                 std::to_string(limits.max_file_bytes) + " bytes");
      }
      out.Write(buffer, static_cast<std::size_t>(count));
    }
    out.Close();
    extracted.push_back(name);
  });
  return extracted;
}

#else  // built without libarchive

namespace {

ToolError NoLibarchive(const fs::path& archive_path) {
  return ToolError(ExitCode::kUsage, "this sdk-plugin was built without libarchive and cannot read the archive " +
                                         PathToUtf8(archive_path) + "; unpack it and install the folder instead");
}

}  // namespace

bool ArchivesSupported() { return false; }

std::vector<std::string> ListDropArchive(const fs::path& archive_path, const ArchiveLimits&) {
  throw NoLibarchive(archive_path);
}

std::vector<std::string> ExtractFromDropArchive(const fs::path& archive_path, const std::vector<DropFile>&,
                                                const fs::path&, const ArchiveLimits&) {
  throw NoLibarchive(archive_path);
}

#endif

}  // namespace backplane::sdk_plugin
