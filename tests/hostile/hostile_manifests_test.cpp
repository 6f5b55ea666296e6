// Hostile manifests (issue 18): numbers out of range, deep nesting, duplicate keys, bytes after
// the document, huge files and values, non-regular files named like manifests. Each one beside a
// good plugin: discovery must return, register the good one, and give the hostile manifest a
// record with the expected code naming the file.
#include "hostile_discovery.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace backplane::hostile {
namespace {

const std::string kHostileManifest = ManifestFileName("Hostile", "Json");

// Writes `text` verbatim as the hostile manifest.
std::function<std::string(const TestFolder&)> Text(std::string text) {
  return [text](const TestFolder& folder) {
    folder.WriteFile(kHostileManifest, text);
    return kHostileManifest;
  };
}

// A valid manifest for valid_b (its library copied beside it), as text, for cases to append to
// or edit.
std::string ValidManifestText(const TestFolder& folder) {
  const std::string library = LibraryFileName("Hostile", "Json");
  folder.AddLibrary(test_plugins::valid_b, library);
  return DefaultManifest(test_plugins::valid_b, library).dump();
}

// The valid manifest, changed by `edit` (on the text).
std::function<std::string(const TestFolder&)> Edited(std::function<std::string(std::string)> edit) {
  return [edit](const TestFolder& folder) {
    folder.WriteFile(kHostileManifest, edit(ValidManifestText(folder)));
    return kHostileManifest;
  };
}

ExpectedRecord InvalidJson(std::vector<std::string> says) {
  return {Verdict::kRejected, ReasonCode::kManifestInvalidJson, DiscoveryStage::kManifestRead,
          FoundBy::kManifest, std::move(says)};
}

ExpectedRecord Unreadable(std::vector<std::string> says) {
  return {Verdict::kRejected, ReasonCode::kManifestUnreadable, DiscoveryStage::kFound,
          FoundBy::kManifest, std::move(says)};
}

// `text` with `insert` placed right after the first occurrence of `after`.
std::string InsertAfter(std::string text, const std::string& after, const std::string& insert) {
  const auto at = text.find(after);
  REQUIRE(at != std::string::npos);
  return text.insert(at + after.size(), insert);
}

}  // namespace

TEST_CASE("hostile manifests: text that is not one JSON object is manifest_invalid_json") {
  const std::vector<HostileCase> cases = {
      {"empty file", Text(""), InvalidJson({"not valid JSON"})},
      {"number out of range", Text("{\"x\": 1e400}"), InvalidJson({"number overflow parsing '1e400'"})},
      {"negative number out of range", Text("{\"x\": -1e400}"), InvalidJson({"number overflow"})},
      {"array", Text("[1, 2, 3]"), InvalidJson({"the top level must be a JSON object, not array"})},
      {"number", Text("42"), InvalidJson({"the top level must be a JSON object, not number"})},
      {"string", Text("\"manifest\""), InvalidJson({"the top level must be a JSON object, not string"})},
      {"null", Text("null"), InvalidJson({"the top level must be a JSON object, not null"})},
      {"ill-formed UTF-8", Text("{\"id\": \"\xC3\x28\"}"), InvalidJson({"not valid JSON"})},
      {"lone surrogate escape", Text("{\"id\": \"\\ud800\"}"), InvalidJson({"not valid JSON"})},
      {"NUL bytes only", Text(std::string(64, '\0')), InvalidJson({"not valid JSON"})},
      {"deep nesting at the top", Text(std::string(200000, '[')), InvalidJson({"nested more than 64 levels deep"})},
      {"deep nesting inside capabilities",
       Edited([](std::string text) {
         return InsertAfter(text, "\"values\":{",
                            "\"Deep\":" + std::string(100000, '[') + std::string(100000, ']') + ",");
       }),
       InvalidJson({"nested more than 64 levels deep"})},
      {"duplicate key", Edited([](std::string text) { return InsertAfter(text, "{", "\"id\":\"TestOther\","); }),
       InvalidJson({"key \"id\" appears twice in one object"})},
      {"duplicate key inside capabilities",
       Edited([](std::string text) { return InsertAfter(text, "\"values\":{", "\"TestCapability\":false,"); }),
       InvalidJson({"key \"TestCapability\" appears twice in one object"})},
      {"bytes after the document", Edited([](std::string text) { return text + "\n{\"more\": 1}"; }),
       InvalidJson({"unexpected bytes after the JSON document at byte "})},
      {"NUL and garbage after the document",
       Edited([](std::string text) { return text + std::string("\0garbage", 8); }),
       InvalidJson({"unexpected bytes after the JSON document at byte "})},
  };
  for (const auto& hostile : cases) RunHostileCase(hostile);
}

TEST_CASE("hostile manifests: a valid manifest with a UTF-8 byte order mark is accepted") {
  RunHostileCase({"BOM", Edited([](std::string text) { return "\xEF\xBB\xBF" + text; }),
                  {Verdict::kRegistered, ReasonCode::kOk, DiscoveryStage::kRegistered, FoundBy::kManifest,
                   {"registered backend TestValidB"}}});
}

TEST_CASE("hostile manifests: huge files and values cost bounded time and text") {
  const std::string huge(200000, 'Q');
  const std::vector<HostileCase> cases = {
      {"2 MB manifest", Edited([](std::string text) { return text + std::string(2 << 20, ' '); }),
       Unreadable({"bytes; a manifest may have at most 1048576 (1 MiB)"})},
      {"200 KB id value",
       [&](const TestFolder& folder) {
         ValidManifestText(folder);
         auto manifest = DefaultManifest(test_plugins::valid_b, LibraryFileName("Hostile", "Json"));
         manifest["id"] = huge;
         folder.WriteManifest(kHostileManifest, manifest);
         return kHostileManifest;
       },
       {Verdict::kRejected, ReasonCode::kManifestFieldInvalid, DiscoveryStage::kManifestChecked,
        FoundBy::kManifest, {"field \"id\" is \"QQQQ", "(200000 bytes): must be 1 to 64 letters or digits"}}},
      {"200 KB library name",
       [&](const TestFolder& folder) {
         auto manifest = DefaultManifest(test_plugins::valid_b, huge);
         folder.WriteManifest(kHostileManifest, manifest);
         return kHostileManifest;
       },
       {Verdict::kRejected, ReasonCode::kLibraryPathInvalid, DiscoveryStage::kManifestChecked,
        FoundBy::kManifest, {"(200000 bytes) is longer than 255 bytes"}}},
      {"200 KB unterminated string", Text("{\"id\": \"" + huge), InvalidJson({"not valid JSON"})},
  };
  for (const auto& hostile : cases) RunHostileCase(hostile);
}

TEST_CASE("hostile manifests: a manifest name that is not a regular file is never read" * doctest::skip(!kElfAndPosixFiles)) {
  std::vector<HostileCase> cases = {
      {"a folder named like a manifest",
       [](const TestFolder& folder) {
         folder.MakeFolder(kHostileManifest);
         return kHostileManifest;
       },
       Unreadable({"is a folder, not a regular file"})},
      {"symlink loop",
       [](const TestFolder& folder) {
         folder.Symlink(kHostileManifest, "loop.json");
         folder.Symlink("loop.json", kHostileManifest);
         return kHostileManifest;
       },
       Unreadable({"is a symlink loop"})},
      {"dangling symlink",
       [](const TestFolder& folder) {
         folder.Symlink(kHostileManifest, "nothing.json");
         return kHostileManifest;
       },
       Unreadable({"cannot be opened"})},
  };
#if defined(__linux__)
  // Each of these hung discovery forever before (reading blocked or never ended).
  cases.push_back({"FIFO",
                   [](const TestFolder& folder) {
                     folder.Fifo(kHostileManifest);
                     return kHostileManifest;
                   },
                   Unreadable({"is a FIFO (named pipe), not a regular file"})});
  cases.push_back({"symlink to /dev/zero",
                   [](const TestFolder& folder) {
                     folder.Symlink(kHostileManifest, "/dev/zero");
                     return kHostileManifest;
                   },
                   Unreadable({"is a character device, not a regular file"})});
  cases.push_back({"symlink to /dev/urandom",
                   [](const TestFolder& folder) {
                     folder.Symlink(kHostileManifest, "/dev/urandom");
                     return kHostileManifest;
                   },
                   Unreadable({"is a character device, not a regular file"})});
#endif
  for (const auto& hostile : cases) RunHostileCase(hostile);
}

}  // namespace backplane::hostile
