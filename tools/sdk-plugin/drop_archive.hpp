// Drops packed as archives (.tar.gz, .tgz, .zip), read with libarchive under rules that keep a
// hostile archive from writing outside the folder it is unpacked into or filling the disk:
// only regular files, all at the top level or all under one top-level folder (folder entries
// for that one folder are allowed); no links, devices, FIFOs or sockets; no absolute path, no
// '..', no backslash; no name twice; at most `max_entries` entries and `max_file_bytes` per file.
// Any entry that breaks a rule rejects the whole archive, whether or not its file is wanted.
#pragma once

#include "drop_contents.hpp"

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace backplane::sdk_plugin {

struct ArchiveLimits {
  std::size_t max_entries = 64;
  std::uint64_t max_file_bytes = std::uint64_t{1} << 30;  // 1 GiB
};

// True for a file name ending in .tar.gz, .tgz or .zip (case-insensitive).
bool IsArchiveName(const std::filesystem::path& path);

// False when sdk-plugin was built without libarchive: the functions below then throw ToolError
// (kUsage) saying so, and only folders can be installed.
bool ArchivesSupported();

// The plain file names of the archive's regular files, in archive order. Reads headers only.
// Throws ToolError: kRejected naming the archive and the entry that breaks a rule, or what
// libarchive could not read (not an archive, truncated, encrypted); kInputMissing when the
// archive cannot be opened.
std::vector<std::string> ListDropArchive(const std::filesystem::path& archive,
                                         const ArchiveLimits& limits = {});

// Extracts the files of `wanted` that the archive holds into `folder` (which must exist), each
// as a new regular file with mode 0644, 0755 when DropFile::executable. Checks every entry
// against the rules again. Returns the names extracted. Throws ToolError as ListDropArchive
// does, and as NewFile does for a file that cannot be written; a file left half-written by a
// failure is removed, the others stay (the caller removes `folder`).
std::vector<std::string> ExtractFromDropArchive(const std::filesystem::path& archive,
                                                const std::vector<DropFile>& wanted,
                                                const std::filesystem::path& folder,
                                                const ArchiveLimits& limits = {});

}  // namespace backplane::sdk_plugin
