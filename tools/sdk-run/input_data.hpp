// The data sdk-run feeds the network: .npy files given with --input, random data otherwise;
// and the reading of the .npy files --expected names.
#pragma once

#include "host_tensor.hpp"

#include <backplane/network.hpp>
#include <backplane/npy.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace backplane::sdk_run {

struct NetworkInput {
  HostTensor tensor;
  std::string file;  // the .npy it was read from; empty: random data
};

// One tensor per network input, in `input_names` order (the model's). An input named in
// `files` is read from that .npy file and must have the input's type and shape; every other
// input gets data from a generator seeded with `seed`: f32 uniform in [-1, 1), every other
// type zeros. The random values depend only on the seed and the inputs' order and shapes (the
// generator is std::mt19937_64, mapped to floats without a std:: distribution), so they are
// the same on every platform.
// Throws ToolError (kBadInput) for a name in `files` that is no input (listing the inputs), a
// missing or malformed .npy file (naming it), and a type or shape that differs from the
// input's (naming the input, the file and both).
// The checks of a NAME=FILE.npy option (--input, --expected) against the model, each throwing
// ToolError (kBadInput) with a message that starts "<option> NAME=FILE: ".
// RequireTensorName: `name` must be one of `names` (the message lists them, e.g. "the model has
// no output z (its outputs: y)"; `role` is "input" or "output").
void RequireTensorName(const std::string& option, const std::string& name, const std::string& file,
                       const std::vector<std::string>& names, const char* role);
// ReadNpyFile: reads `file`, which must be a valid .npy (any type and shape), as tensor `name`.
NpyArray ReadNpyFile(const std::string& option, const std::string& name, const std::string& file);
// ReadTensorFile: reads `file`, which must be a valid .npy holding exactly `expected` (type and
// shape; the message names both), as tensor `name`. With `bounded_axis` (an output whose extent
// there the run decides, onnx::ImportedModel::trimmed_outputs) the file's extent along that axis
// may be anything up to expected's, and the tensor has the file's shape.
HostTensor ReadTensorFile(const std::string& option, const std::string& name,
                          const std::string& file, const TensorInfo& expected, const char* role,
                          std::optional<std::size_t> bounded_axis = std::nullopt);

std::vector<NetworkInput> MakeInputs(const Network& network,
                                     const std::vector<std::string>& input_names,
                                     const std::map<std::string, std::string>& files,
                                     std::uint64_t seed);

}  // namespace backplane::sdk_run
