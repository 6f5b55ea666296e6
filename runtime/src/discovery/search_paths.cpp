#include "discovery/search_paths.hpp"

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

}  // namespace

std::string CheckSearchFolder(const std::string& path) {
  const fs::path folder(path);
  if (!folder.is_absolute()) return "not an absolute path";
  std::error_code error;
  const auto status = fs::status(folder, error);
  if (error || !fs::exists(status)) return "does not exist";
  if (!fs::is_directory(status)) return "not a folder";
  return {};
}

std::vector<SearchPath> ResolveSearchPaths(const SearchPathSources& sources, char separator) {
  std::vector<std::string> folders;
  const char* source = "";
  if (!sources.option.empty()) {
    folders = sources.option;
    source = "option";
  } else if (sources.environment && !SplitList(*sources.environment, separator).empty()) {
    folders = SplitList(*sources.environment, separator);
    source = "environment";
  } else if (!SplitList(sources.compiled_in, separator).empty()) {
    folders = SplitList(sources.compiled_in, separator);
    source = "compiled-in";
  } else if (!sources.default_folder.empty()) {
    folders = {sources.default_folder};
    source = "default";
  }

  std::vector<SearchPath> paths;
  paths.reserve(folders.size());
  std::vector<std::pair<fs::path, std::string>> searched;  // canonical folder, as given
  for (auto& folder : folders) {
    SearchPath path;
    path.path = std::move(folder);
    path.source = source;
    path.reason = CheckSearchFolder(path.path);
    if (path.reason.empty()) {
      std::error_code error;
      const fs::path canonical = fs::canonical(path.path, error);
      for (const auto& [earlier, given] : searched) {
        if (!error && earlier == canonical) path.reason = "same folder as " + given + ", already searched";
      }
      if (path.reason.empty()) searched.emplace_back(canonical, path.path);
    }
    path.valid = path.reason.empty();
    paths.push_back(std::move(path));
  }
  return paths;
}

}  // namespace backplane::discovery
