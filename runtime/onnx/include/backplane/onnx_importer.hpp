// The ONNX importer (library Backplane::onnx): an .onnx file in, a Network out.
#pragma once

#include <backplane/exception.hpp>
#include <backplane/network.hpp>
#include <backplane/onnx_export.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace backplane::onnx {

struct ImportOptions {
  // Fixes the dimensions of inputs: name -> full shape. Required for every input with a
  // dynamic (symbolic or unknown) dimension; a given shape must agree with the model's fixed
  // dimensions.
  std::map<std::string, std::vector<std::int64_t>> input_shapes;
  // Fixes the values of inputs: name -> value, of the model's type and a shape its dimensions
  // allow (a dimension may be 0 here: an empty list of axes). Such an input becomes a constant
  // of the network, not one of its inputs, so that what is computed from it folds at import:
  // Reshape's shape, Resize's scales, TopK's K (UnsupportedNode::value_inputs names the inputs
  // a node needs this way; onnx::Session gives them from each run). The views are read during
  // the call only.
  std::map<std::string, ConstTensorView> input_values;
  // Upper bound on the .onnx file's size and on any one tensor's size, so a hostile file cannot
  // make the importer allocate without bound. External data files (below) are not limited by
  // it as a whole, only each tensor read from them; their total counts against
  // memory_budget_bytes.
  std::uint64_t max_model_bytes = 2ull << 30;
  // Upper bound on the import as a whole: the bytes of every constant (initializers, Constant
  // nodes, folded results; a buffer shared by several names counts once) plus the bytes of
  // every tensor the network computes (each node output's inferred shape, summed as if all
  // were alive at once). Checked from the inferred shapes before anything is allocated, so a
  // small model that expands into gigabytes fails in milliseconds with an error naming the
  // node, the bytes it needs and this budget.
  //
  // The default, 8 GiB, admits real models with room to spare: a model file holds at most
  // 2 GiB of weights (protobuf's limit, max_model_bytes), which leaves 6 GiB for activations;
  // BERT-large (1.34 GB of f32 weights) at sequence length 512, batch 1, sums to about 6 GB,
  // resnet152 (0.24 GB of weights, about 0.25 GB of activations per image) fits up to batch 16.
  // Raise it for larger batches or sequences; lower it where the host has little memory.
  std::uint64_t memory_budget_bytes = 8ull << 30;
};

// One op the importer cannot translate.
struct UnsupportedNode {
  std::string op_type;    // e.g. "NonMaxSuppression"
  std::string node_name;  // may be empty in the model; then "#<index>"
  std::int64_t opset = 0; // the opset of its domain the model imports
  std::string reason;     // "not in op set v2", "attribute mode=cubic not supported", ...
  // The graph inputs whose values the node needs at import (an input it reads as a constant,
  // such as Reshape's shape, is computed from them at run time): given in
  // ImportOptions::input_values they would make it a constant. Empty for other reasons.
  std::vector<std::string> value_inputs;
};

// Thrown when the model uses ops the importer cannot translate: lists every one at once.
class BACKPLANE_ONNX_API UnsupportedModelError : public Exception {
 public:
  UnsupportedModelError(const std::string& message, std::vector<UnsupportedNode> nodes);
  ~UnsupportedModelError() override;
  const std::vector<UnsupportedNode>& nodes() const noexcept { return nodes_; }

 private:
  std::vector<UnsupportedNode> nodes_;
};

// A graph output whose extent depends on the input values (NonZero, Compress, Unique,
// NonMaxSuppression): the network computes it in an upper-bound shape, and the network output
// `count` (i64 [1], not a graph output) says how many entries along `axis` are valid. Its
// consumer (onnx::Session) keeps the first `count` along `axis`: the output ONNX defines.
struct TrimmedOutput {
  std::string output;  // a graph output (in ImportedModel::outputs)
  std::string count;   // a network output of its own
  std::size_t axis = 0;
};

// Keeps the valid part of the bound-shaped output `trimmed.output` (`info`, dense `data`): the
// first `count` entries along trimmed.axis, `count` read from `count_data` (the bytes of
// trimmed.count, i64 [1]). The one rule for it: onnx::Session applies it to every run, tools that
// run an ImportedModel's network themselves (sdk-run) call it too. Throws Exception (kInternal)
// when the count is outside [0, the bound] (a backend broke the layer's contract) or `data` or
// `count_data` do not fit `info` and i64 [1].
BACKPLANE_ONNX_API void TrimOutput(const TrimmedOutput& trimmed, TensorInfo& info, std::vector<std::uint8_t>& data,
                                   const std::vector<std::uint8_t>& count_data);

struct ImportedModel {
  Network network;
  std::vector<std::string> inputs;   // graph inputs that are not initializers, in model order,
                                     // but those given by ImportOptions::input_values
  std::vector<std::string> value_inputs;  // those given by ImportOptions::input_values, sorted
  std::vector<std::string> outputs;  // graph outputs, in model order
  // The graph outputs computed in an upper-bound shape, each with the network output that holds
  // its valid extent (after `outputs` among the network's outputs). Empty for most models.
  std::vector<TrimmedOutput> trimmed_outputs;
  std::int64_t opset = 0;            // of the default ("" / "ai.onnx") domain
  std::string producer;              // producer_name + " " + producer_version
};

// Imports `path`. Tensors stored as ONNX external data (data_location EXTERNAL, as
// onnx.save_model(..., save_as_external_data=True) writes models over protobuf's 2 GiB limit)
// are read from files in the model's folder (docs/onnx-import.md: a location must be relative
// and must not leave that folder, through ".." or a symbolic link; offset and length must lie
// inside the file and length must be the tensor's size); only each tensor's range is read.
// Throws Exception (kNotFound) when the model or an external data file cannot be read,
// (kInvalidArgument) naming the file, the tensor and what is wrong for a malformed, truncated
// or inconsistent model, external data that breaks those rules, or a missing/contradicting
// input shape, and UnsupportedModelError (kUnsupported) listing every unsupported node.
// Thread-safe (no shared state).
BACKPLANE_ONNX_API ImportedModel ImportModel(const std::string& path, const ImportOptions& options = {});

// The same for a model already in memory; `name` is used in messages. It reads no file: a
// model with external data is an Exception (kInvalidArgument) saying it needs the model's path
// (use ImportModel).
BACKPLANE_ONNX_API ImportedModel ImportModelFromMemory(const void* data, std::size_t size,
                                                      const std::string& name, const ImportOptions& options = {});

}  // namespace backplane::onnx
