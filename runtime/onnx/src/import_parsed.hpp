// The importer's entry for a model already parsed (onnx::Session imports one parsed model once
// per input shape; ImportModel and ImportModelFromMemory parse and call it).
#pragma once

#include "external_data.hpp"
#include "shared_tensors.hpp"

#include <backplane/onnx_importer.hpp>

#include <onnx/onnx_pb.h>

#include <string>

namespace backplane::onnx {

// Checks and imports `model` (`name` is used in messages); throws as ImportModel. `model` is
// only read during the call; its tensors are read through `shared` when given (which must then
// belong to this model). Thread-safe.
ImportedModel ImportParsedModel(const ::onnx::ModelProto& model, const std::string& name, const ImportOptions& options,
                                ExternalDataFolder external, SharedTensors* shared = nullptr);

}  // namespace backplane::onnx
