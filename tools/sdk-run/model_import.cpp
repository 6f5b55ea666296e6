#include "model_import.hpp"

#include "exit_code.hpp"

#include <backplane/npy.hpp>
#include <backplane/onnx_session.hpp>
#include <backplane/path_text.hpp>

#include <chrono>
#include <filesystem>
#include <utility>

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

// The files of `input_files` that `session` takes as they are (readable .npy of a type and shape
// the model allows), for inputs --input-shape does not fix. (MakeInputs reads them again.)
std::vector<NpyArray> FittingFiles(const onnx::Session& session, const std::map<std::string, std::string>& input_files,
                                   const std::map<std::string, std::vector<std::int64_t>>& input_shapes,
                                   std::vector<InputBinding>& bindings) {
  std::vector<NpyArray> arrays;
  std::vector<std::string> names;
  for (const auto& [name, file] : input_files) {
    if (input_shapes.count(name)) continue;
    try {
      NpyArray array = ReadNpy(file);
      session.CheckInputs({{name, ConstTensorView{TensorInfo{array.shape, array.type}, array.data.data()}}}, false);
      arrays.push_back(std::move(array));
      names.push_back(name);
    } catch (const Exception&) {  // MakeInputs reports it, naming the option and the file
    }
  }
  for (std::size_t i = 0; i < arrays.size(); ++i) {
    bindings.push_back({names[i], ConstTensorView{TensorInfo{arrays[i].shape, arrays[i].type}, arrays[i].data.data()}});
  }
  return arrays;
}

std::unique_ptr<onnx::Session> OpenSession(Runtime& runtime, const std::string& path,
                                           onnx::SessionOptions options) {
  CheckModelFile(path);
  try {
    return onnx::Session::Open(runtime, path, std::move(options));
  } catch (const Exception& error) {
    throw ToolError(ExitCode::kBadModel, NamingFile(path, error.what()));
  }
}

ImportResult ImportForRun(Runtime& runtime, const std::string& path,
                          const std::map<std::string, std::vector<std::int64_t>>& input_shapes,
                          const std::map<std::string, std::string>& input_files) {
  onnx::SessionOptions options;
  options.import.input_shapes = input_shapes;
  const auto start = std::chrono::steady_clock::now();
  const auto session = OpenSession(runtime, path, options);
  ImportResult result;
  try {
    std::vector<InputBinding> bindings;
    const std::vector<NpyArray> files = FittingFiles(*session, input_files, input_shapes, bindings);
    result.model = session->Import(bindings);
  } catch (const Exception& error) {  // UnsupportedModelError's message lists every node
    throw ToolError(ExitCode::kBadModel, NamingFile(path, error.what()));
  }
  result.import_ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();

  return result;
}

}  // namespace backplane::sdk_run
