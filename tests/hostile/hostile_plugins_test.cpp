// Hostile plugins (issue 18): library files that are truncated, of another machine or class,
// not libraries at all, not regular files (FIFO, device, folder), symlink tricks, and plugins
// whose entry points throw. Each one beside a good plugin: discovery must return, register the
// good one, and give the hostile one a record with the expected code naming the file.
#include "hostile_discovery.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace backplane::hostile {
namespace {

const std::string kHostileLibrary = LibraryFileName("Hostile", "Lib");

// A copy of valid_b (another id than valid_a) under the naming-scheme name, with `edit` applied
// to its bytes.
std::function<std::string(const TestFolder&)> PatchedPlugin(std::function<void(std::string&)> edit) {
  return [edit](const TestFolder& folder) {
    std::string bytes = PluginBytes(test_plugins::valid_b);
    edit(bytes);
    folder.WriteFile(kHostileLibrary, bytes);
    return kHostileLibrary;
  };
}

// valid_b's bytes cut to `size` (a negative size counts from the end).
std::function<std::string(const TestFolder&)> Truncated(long long size) {
  return PatchedPlugin([size](std::string& bytes) {
    bytes.resize(size >= 0 ? static_cast<std::size_t>(size) : bytes.size() - static_cast<std::size_t>(-size));
  });
}

ExpectedRecord Invalid(std::vector<std::string> says, FoundBy found_by = FoundBy::kNamingScheme) {
  return {Verdict::kRejected, ReasonCode::kLibraryInvalid, DiscoveryStage::kLibraryVerified, found_by,
          std::move(says)};
}

// A plugin variant copied under the naming-scheme name.
std::function<std::string(const TestFolder&)> Variant(const TestPlugin& plugin) {
  return [&plugin](const TestFolder& folder) {
    folder.AddLibrary(plugin, kHostileLibrary);
    return kHostileLibrary;
  };
}

// A manifest "Hostile_Lib_backend.json" for valid_b whose library is `library`, which `plant`
// creates; `edit` changes the manifest.
std::function<std::string(const TestFolder&)> WithManifest(
    const std::string& library, std::function<void(const TestFolder&)> plant,
    std::function<void(nlohmann::json&)> edit = {}) {
  return [=](const TestFolder& folder) {
    plant(folder);
    nlohmann::json manifest = DefaultManifest(test_plugins::valid_b, library);
    if (edit) edit(manifest);
    const std::string name = ManifestFileName("Hostile", "Lib");
    folder.WriteManifest(name, manifest);
    return name;
  };
}

[[maybe_unused]] void WithSha256(nlohmann::json& manifest) { manifest["sha256"] = std::string(64, 'a'); }

// Where the loadable segments of a little-endian ELF64 file end (the largest p_offset +
// p_filesz of its PT_LOAD program headers); the file's size for anything else. A cut before it
// is a cut through a segment, whatever debug sections follow the segments.
long long LoadedBytes(const std::string& bytes) {
  const auto read = [&](std::size_t at, std::size_t width) {
    unsigned long long value = 0;
    for (std::size_t i = 0; i < width && at + i < bytes.size(); ++i) {
      value |= static_cast<unsigned long long>(static_cast<unsigned char>(bytes[at + i])) << (8 * i);
    }
    return value;
  };
  if (bytes.size() < 64 || bytes.compare(0, 4, "\x7f" "ELF") != 0 || bytes[4] != 2 || bytes[5] != 1) {
    return static_cast<long long>(bytes.size());
  }
  const unsigned long long table = read(0x20, 8), entry = read(0x36, 2), count = read(0x38, 2);
  unsigned long long end = 0;
  for (unsigned long long i = 0; i < count; ++i) {
    const std::size_t header = static_cast<std::size_t>(table + i * entry);
    if (read(header, 4) == 1) end = std::max(end, read(header + 8, 8) + read(header + 0x20, 8));
  }
  return end > 0 ? static_cast<long long>(end) : static_cast<long long>(bytes.size());
}

}  // namespace

TEST_CASE("hostile plugins: truncated libraries (half-copied installs) are library_invalid, never SIGBUS" * doctest::skip(!kElfAndPosixFiles)) {
  const std::string plugin = PluginBytes(test_plugins::valid_b);
  const long long size = static_cast<long long>(plugin.size());
  const long long loaded = LoadedBytes(plugin);  // cuts before it go through a segment
  const std::string ends_at = "is truncated: it ends at byte ";
  const std::vector<HostileCase> cases = {
      {"3 bytes", Truncated(3), Invalid({"is not a shared library"})},
      {"16 bytes", Truncated(16), Invalid({ends_at + "16 but its ELF header needs bytes up to 64"})},
      {"63 bytes", Truncated(63), Invalid({ends_at + "63 but its ELF header"})},
      {"100 bytes", Truncated(100), Invalid({ends_at + "100 but its program header table"})},
      {"1/4 of the segments", Truncated(loaded / 4), Invalid({ends_at + std::to_string(loaded / 4) + " but its segment"})},
      {"1/2 of the segments", Truncated(loaded / 2), Invalid({ends_at + std::to_string(loaded / 2) + " but its segment"})},
      {"all but 1 byte", Truncated(-1), Invalid({ends_at + std::to_string(size - 1) + " but its section header table"})},
  };
  for (const auto& hostile : cases) RunHostileCase(hostile);
}

TEST_CASE("hostile plugins: files that are not libraries of this machine are library_invalid naming why") {
  std::vector<HostileCase> cases = {
      {"zero-length", PatchedPlugin([](std::string& b) { b.clear(); }),
       Invalid({"is empty (0 bytes), not a shared library"})},
      {"random bytes", PatchedPlugin([](std::string& b) {
         std::string noise(4096, '\0');
         unsigned state = 12345;
         for (char& c : noise) c = static_cast<char>((state = state * 1103515245u + 12345u) >> 16);
         b = noise;
       }),
       Invalid({"is not a shared library: it does not start with the"})},
      {"text", PatchedPlugin([](std::string& b) { b = "#!/bin/sh\necho not a library\n"; }),
       Invalid({"is not a shared library"})},
      {"PE DLL header", PatchedPlugin([](std::string& b) { b = "MZ" + std::string(200, '\0'); }),
       kLinuxX86_64 ? Invalid({"is a PE file (Windows), this runtime loads ELF libraries"}) : Invalid({})},
  };
  if (kLinuxX86_64) {
    cases.push_back({"ELF for aarch64 (e_machine patched)", PatchedPlugin([](std::string& b) {
                       b[18] = static_cast<char>(183);
                       b[19] = 0;
                     }),
                     Invalid({"is an ELF for aarch64 (machine 183), this runtime is x86_64"})});
    cases.push_back({"ELF of 32-bit class", PatchedPlugin([](std::string& b) { b[4] = 1; }),
                     Invalid({"is a 32-bit ELF file, this runtime is 64-bit"})});
    cases.push_back({"big-endian ELF", PatchedPlugin([](std::string& b) {
                       b[5] = 2;
                       std::swap(b[18], b[19]);
                     }),
                     Invalid({"is a big-endian ELF file, this runtime is little-endian"})});
    cases.push_back({"ELF executable type", PatchedPlugin([](std::string& b) { b[16] = 2; }),
                     Invalid({"is an ELF file of type 2 (an executable), not a shared library"})});
  }
  for (const auto& hostile : cases) RunHostileCase(hostile);
}

TEST_CASE("hostile plugins: a library name that is not a regular file is refused without opening it" * doctest::skip(!kElfAndPosixFiles)) {
  std::vector<HostileCase> cases = {
      {"a folder named like a library",
       [](const TestFolder& folder) {
         folder.MakeFolder(kHostileLibrary);
         return kHostileLibrary;
       },
       Invalid({"is a folder, not a regular file"})},
      {"symlink loop",
       [](const TestFolder& folder) {
         folder.Symlink(kHostileLibrary, LibraryFileName("Hostile", "Other"));
         folder.Symlink(LibraryFileName("Hostile", "Other"), kHostileLibrary);
         return kHostileLibrary;
       },
       {Verdict::kRejected, ReasonCode::kLibraryMissing, DiscoveryStage::kLibraryVerified,
        FoundBy::kNamingScheme, {"is a symlink loop"}}},
      {"dangling symlink",
       [](const TestFolder& folder) {
         folder.Symlink(kHostileLibrary, "nowhere.so");
         return kHostileLibrary;
       },
       {Verdict::kRejected, ReasonCode::kLibraryMissing, DiscoveryStage::kLibraryVerified,
        FoundBy::kNamingScheme, {"is a symlink that resolves to nothing"}}},
  };
#if defined(__linux__)
  // Each of these hung discovery forever before (dlopen or hashing blocked on it).
  cases.push_back({"FIFO found by name",
                   [](const TestFolder& folder) {
                     folder.Fifo(kHostileLibrary);
                     return kHostileLibrary;
                   },
                   Invalid({"is a FIFO (named pipe), not a regular file"})});
  cases.push_back({"symlink to /dev/zero found by name",
                   [](const TestFolder& folder) {
                     folder.Symlink(kHostileLibrary, "/dev/zero");
                     return kHostileLibrary;
                   },
                   Invalid({"is a character device, not a regular file"})});
  cases.push_back({"manifest with sha256, library a FIFO",
                   WithManifest("hostile.so", [](const TestFolder& f) { f.Fifo("hostile.so"); }, WithSha256),
                   Invalid({"hostile.so is a FIFO (named pipe), not a regular file"}, FoundBy::kManifest), "hostile.so"});
  cases.push_back({"manifest with sha256, library a symlink to /dev/zero",
                   WithManifest("zero.so", [](const TestFolder& f) { f.Symlink("zero.so", "/dev/zero"); },
                                WithSha256),
                   {Verdict::kRejected, ReasonCode::kLibraryPathInvalid, DiscoveryStage::kManifestChecked,
                    FoundBy::kManifest, {"zero.so is a symlink to /dev/zero, outside the manifest's folder"}}});
  cases.push_back({"manifest with sha256, library a FIFO beside it reached by symlink",
                   WithManifest("link.so",
                                [](const TestFolder& f) {
                                  f.Fifo("pipe.so");
                                  f.Symlink("link.so", "pipe.so");
                                },
                                WithSha256),
                   Invalid({"link.so is a FIFO (named pipe), not a regular file"}, FoundBy::kManifest), "link.so"});
#endif
  for (const auto& hostile : cases) RunHostileCase(hostile);
}

TEST_CASE("hostile plugins: a manifest's library must be a whole library file in its folder" * doctest::skip(!kElfAndPosixFiles)) {
  const std::vector<HostileCase> cases = {
      {"manifest's library truncated",
       WithManifest("half.so", [](const TestFolder& f) {
         std::string bytes = PluginBytes(test_plugins::valid_b);
         bytes.resize(bytes.size() / 2);
         f.WriteFile("half.so", bytes);
       }),
       Invalid({"half.so is truncated: it ends at byte"}, FoundBy::kManifest), "half.so"},
      {"manifest's library a folder",
       WithManifest("dir.so", [](const TestFolder& f) { f.MakeFolder("dir.so"); }),
       Invalid({"dir.so is a folder, not a regular file"}, FoundBy::kManifest), "dir.so"},
      {"manifest's library a symlink out of the folder",
       WithManifest("out.so", [](const TestFolder& f) {
         const fs::path real = f.AddLibrary(test_plugins::valid_b, "elsewhere/real.so");
         f.Symlink("out.so", real);
       }),
       {Verdict::kRejected, ReasonCode::kLibraryPathInvalid, DiscoveryStage::kManifestChecked,
        FoundBy::kManifest, {"out.so is a symlink to ", "elsewhere/real.so, outside the manifest's folder"}}},
      {"manifest's library a versioning symlink beside it (accepted)",
       WithManifest("Hostile_Lib_backend.so", [](const TestFolder& f) {
         f.AddLibrary(test_plugins::valid_b, "Hostile_Lib_backend.so.1.2.3");
         f.Symlink("Hostile_Lib_backend.so", "Hostile_Lib_backend.so.1.2.3");
       }),
       {Verdict::kRegistered, ReasonCode::kOk, DiscoveryStage::kRegistered, FoundBy::kManifest,
        {"registered backend TestValidB"}}},
  };
  for (const auto& hostile : cases) RunHostileCase(hostile);
}

TEST_CASE("hostile plugins: GetBackendId or GetVersion throwing is entry_point_failed, not the end of the scan") {
  auto threw = [](const char* entry_point, const char* what) {
    return ExpectedRecord{Verdict::kRejected, ReasonCode::kEntryPointFailed, DiscoveryStage::kBackendChecked,
                          FoundBy::kNamingScheme, {std::string(entry_point) + "() threw", what}};
  };
  const std::vector<HostileCase> cases = {
      {"GetBackendId throws std::runtime_error", Variant(test_plugins::get_backend_id_throws),
       threw("GetBackendId", "GetBackendId failed: deliberate test failure 0xBADC0DE")},
      {"GetBackendId throws 42", Variant(test_plugins::get_backend_id_throws_int),
       threw("GetBackendId", "not a std::exception")},
      {"GetVersion throws std::runtime_error", Variant(test_plugins::get_version_throws),
       threw("GetVersion", "GetVersion failed: deliberate test failure 0xBADC0DE")},
      {"GetVersion throws 42", Variant(test_plugins::get_version_throws_int),
       threw("GetVersion", "not a std::exception")},
  };
  for (const auto& hostile : cases) RunHostileCase(hostile);
}

}  // namespace backplane::hostile
