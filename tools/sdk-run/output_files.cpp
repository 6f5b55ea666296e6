#include "output_files.hpp"

#include "exit_code.hpp"

#include <backplane/npy.hpp>
#include <backplane/path_text.hpp>

#include <filesystem>
#include <set>

namespace backplane::sdk_run {

namespace fs = std::filesystem;

std::string SanitizeFileName(const std::string& name) {
  std::string stem;
  for (const char c : name) {
    const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                      c == '.' || c == '_' || c == '-';
    stem += keep ? c : '_';
  }
  if (stem.empty() || stem[0] == '.') stem.insert(stem.begin(), '_');
  return stem;
}

void CreateOutputFolder(const std::string& dir) {
  std::error_code error;
  const fs::path folder = PathFromUtf8(dir);
  fs::create_directories(folder, error);
  if (error || !fs::is_directory(folder)) {
    throw ToolError(ExitCode::kCannotWrite, "--output-dir " + dir + ": cannot create the folder" +
                                                (error ? ": " + error.message() : ""));
  }
}

std::vector<std::string> WriteOutputs(const std::string& dir, const std::vector<HostTensor>& outputs) {
  CreateOutputFolder(dir);
  std::set<std::string> used;
  std::vector<std::string> paths;
  for (const HostTensor& output : outputs) {
    const std::string stem = SanitizeFileName(output.name);
    std::string unique = stem;
    for (int suffix = 2; !used.insert(unique).second; ++suffix) {
      unique = stem + "_" + std::to_string(suffix);
    }
    const std::string path = PathToUtf8(PathFromUtf8(dir) / PathFromUtf8(unique + ".npy"));
    try {
      WriteNpy(path, NpyArray{output.info.type, output.info.shape, output.data});
    } catch (const std::exception& failure) {
      throw ToolError(ExitCode::kCannotWrite, "--output-dir: writing output " + output.name + " to " +
                                                  path + " failed: " + failure.what());
    }
    paths.push_back(path);
  }
  return paths;
}

}  // namespace backplane::sdk_run
