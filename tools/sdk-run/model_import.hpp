// Importing the --model file, with the failures a user can fix reported as a bad model.
#pragma once

#include <backplane/onnx_importer.hpp>
#include <backplane/onnx_session.hpp>
#include <backplane/runtime.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace backplane::sdk_run {

struct ImportResult {
  onnx::ImportedModel model;
  double import_ms = 0;  // wall time of the import
};

// Imports `path` (through an onnx::Session of `runtime`) with `input_shapes` (--input-shape) and
// the shapes of the `input_files` (--input NAME=FILE.npy) that fit the model: such an input takes
// its file's shape, and its value where the input decides a shape (Reshape's shape, Resize's
// scales: onnx::Session's rule; it is then a constant of the network, not one of its inputs).
// A file that cannot be read or does not fit is left to MakeInputs, which names what is wrong.
// Throws ToolError (kBadModel) with the importer's message, which names the file, for a
// missing, unreadable, malformed or unsupported model (listing every unsupported node), for a
// dynamic dimension no --input-shape or file fixes, and for an --input-shape that names no
// input or contradicts the model's fixed dimensions (the importer checks these and reports them
// with the same error code as a malformed model).
// onnx::Session::Open for --model `path`. Throws ToolError (kBadModel) naming the file when it
// is missing, a folder, unreadable or malformed.
std::unique_ptr<onnx::Session> OpenSession(Runtime& runtime, const std::string& path,
                                           onnx::SessionOptions options);

ImportResult ImportForRun(Runtime& runtime, const std::string& path,
                          const std::map<std::string, std::vector<std::int64_t>>& input_shapes,
                          const std::map<std::string, std::string>& input_files);

}  // namespace backplane::sdk_run
