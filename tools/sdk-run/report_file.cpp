#include "report_file.hpp"

#include "exit_code.hpp"
#include "whole_file.hpp"

#include <backplane/path_text.hpp>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <system_error>

namespace backplane::sdk_run {

namespace fs = std::filesystem;

void CheckReportPath(const std::string& path) {
  const fs::path file = PathFromUtf8(path);
  std::error_code error;
  if (fs::is_directory(file, error)) {
    throw ToolError(ExitCode::kCannotWrite, "--report " + path + ": is a folder, not a file");
  }
  const bool existed = fs::exists(file, error);
  {
    errno = 0;
    std::ofstream probe(file, std::ios::binary | std::ios::app);
    if (!probe) {
      const int reason = errno;
      const fs::path folder = file.parent_path();
      if (!folder.empty() && !fs::is_directory(folder, error)) {
        throw ToolError(ExitCode::kCannotWrite,
                        "--report " + path + ": the folder " + PathToUtf8(folder) + " does not exist");
      }
      throw ToolError(ExitCode::kCannotWrite,
                      "--report " + path + ": cannot create or write the file" +
                          (reason != 0 ? ": " + std::generic_category().message(reason) : ""));
    }
  }
  if (!existed) fs::remove(file, error);
}

void WriteReportFile(const std::string& path, const std::string& document) {
  if (const int error_number = tools::WriteWholeFile(path, document)) {
    throw ToolError(ExitCode::kCannotWrite,
                    "--report " + path + ": " + std::generic_category().message(error_number));
  }
}

}  // namespace backplane::sdk_run
