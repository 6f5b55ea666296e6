// Importing the --model file, with the failures a user can fix reported as a bad model.
#pragma once

#include <backplane/onnx_importer.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace backplane::sdk_run {

struct ImportResult {
  onnx::ImportedModel model;
  double import_ms = 0;  // wall time of the import
};

// Imports `path` with `input_shapes` (--input-shape). Throws ToolError (kBadModel) with the
// importer's message, which names the file, for a missing, unreadable, malformed or unsupported
// model (listing every unsupported node), for a dynamic dimension no --input-shape fixes, and
// for an --input-shape that names no input or contradicts the model's fixed dimensions (the
// importer checks these and reports them with the same error code as a malformed model).
ImportResult ImportForRun(const std::string& path,
                          const std::map<std::string, std::vector<std::int64_t>>& input_shapes);

}  // namespace backplane::sdk_run
