#include "model_import.hpp"

#include "exit_code.hpp"

#include <backplane/path_text.hpp>

#include <chrono>
#include <filesystem>

namespace backplane::sdk_run {

namespace {

// The checks that need no importer, with messages that say which of them failed.
void CheckModelFile(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code error;
  const fs::file_status status = fs::status(PathFromUtf8(path), error);
  if (!fs::exists(status)) {
    throw ToolError(ExitCode::kBadModel, "model file " + path + ": no such file");
  }
  if (fs::is_directory(status)) {
    throw ToolError(ExitCode::kBadModel, "model file " + path + ": is a folder, not a file");
  }
}

// The importer's message, which names the file; prefixed with it if it does not.
std::string NamingFile(const std::string& path, const std::string& message) {
  if (message.find(path) != std::string::npos) return message;
  return "model file " + path + ": " + message;
}

}  // namespace

ImportResult ImportForRun(const std::string& path,
                          const std::map<std::string, std::vector<std::int64_t>>& input_shapes) {
  CheckModelFile(path);
  onnx::ImportOptions options;
  options.input_shapes = input_shapes;
  const auto start = std::chrono::steady_clock::now();
  ImportResult result;
  try {
    result.model = onnx::ImportModel(path, options);
  } catch (const Exception& error) {  // UnsupportedModelError's message lists every node
    throw ToolError(ExitCode::kBadModel, NamingFile(path, error.what()));
  }
  result.import_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

  return result;
}

}  // namespace backplane::sdk_run
