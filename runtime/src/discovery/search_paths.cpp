#include "discovery/search_paths.hpp"

#include <backplane/path_text.hpp>

#include "platform/regular_file.hpp"

#include <filesystem>
#include <system_error>

namespace backplane::discovery {

namespace fs = std::filesystem;

namespace {

std::vector<std::string> SplitList(const std::string& list, char separator) {
  std::vector<std::string> items;
  std::size_t begin = 0;
  while (begin <= list.size()) {
    const std::size_t end = std::min(list.find(separator, begin), list.size());
    if (end > begin) items.push_back(list.substr(begin, end - begin));
    begin = end + 1;
  }
  return items;
}

constexpr const char* kMissing = "does not exist";

}  // namespace

std::string CheckSearchFolder(const fs::path& folder) {
  if (!folder.is_absolute()) return "not an absolute path";
  std::error_code error;
  const auto status = fs::status(folder, error);
  if (error || !fs::exists(status)) return kMissing;
  if (!fs::is_directory(status)) return "not a folder";
  return {};
}

bool IsDropLayer(const std::string& source) {
  return source == kSourceAdded || source == kSourceUser || source == kSourceSystem;
}

bool IsNormallyAbsent(const SearchPath& path) {
  return (path.source == kSourceUser || path.source == kSourceSystem) && path.reason == kMissing;
}

std::vector<SearchPath> ResolveSearchPaths(const SearchPathSources& sources, char separator) {
  std::vector<std::pair<std::string, const char*>> folders;  // folder, source
  auto add = [&](std::vector<std::string> list, const char* source) {
    for (auto& folder : list) folders.emplace_back(std::move(folder), source);
  };
  const std::vector<std::string> environment =
      sources.environment ? SplitList(*sources.environment, separator) : std::vector<std::string>{};
  if (!sources.option.empty()) {
    add(sources.option, kSourceOption);
  } else if (!environment.empty()) {
    add(sources.added_option, kSourceAdded);
    add(environment, kSourceEnvironment);
  } else {
    add(sources.added_option, kSourceAdded);
    if (sources.added) add(SplitList(*sources.added, separator), kSourceAdded);
    if (!sources.user_folder.empty()) add({sources.user_folder}, kSourceUser);
    if (!sources.system_folder.empty()) add({sources.system_folder}, kSourceSystem);
    add(SplitList(sources.compiled_in, separator), kSourceCompiledIn);
    if (!sources.default_folder.empty()) add({sources.default_folder}, kSourceDefault);
  }

  std::vector<SearchPath> paths;
  paths.reserve(folders.size());
  // The folders searched so far, by identity (so another spelling, case on Windows, or a link
  // to one of them is found out), each as given.
  std::vector<std::pair<platform::FileIdentity, std::string>> searched;
  for (auto& [folder, source] : folders) {
    SearchPath path;
    path.path = std::move(folder);
    path.source = source;
    const fs::path given = PathFromUtf8(path.path);
    path.reason = CheckSearchFolder(given);
    if (path.reason.empty()) {
      if (const auto identity = platform::IdentityOf(given)) {
        for (const auto& [earlier, given] : searched) {
          if (earlier == *identity) path.reason = "same folder as " + given + ", already searched";
        }
        if (path.reason.empty()) searched.emplace_back(*identity, path.path);
      }
    }
    path.valid = path.reason.empty();
    path.normally_absent = IsNormallyAbsent(path);
    paths.push_back(std::move(path));
  }
  return paths;
}

}  // namespace backplane::discovery
