// --input-set: the input files of one run of the model, read and checked against an
// onnx::Session before anything is loaded.
#pragma once

#include "host_tensor.hpp"

#include <backplane/execution.hpp>
#include <backplane/onnx_session.hpp>

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace backplane::sdk_run {

// One input set in the model's input order. Value type; Bindings() views its tensors.
struct InputSet {
  std::string option;               // "--input-set 2": how messages name it
  std::vector<HostTensor> tensors;  // one per model input, in the session's InputNames() order
  std::vector<std::string> files;   // the .npy each was read from

  std::vector<InputBinding> Bindings() const;
};

// Reads the `number`th --input-set (from 1), `files` (input name -> .npy path), for `session`.
// Throws ToolError (kBadInput) whose message starts "--input-set N": a name that is no input of
// the model (listing its inputs), an input with no file (every set gives every input), a file
// that is missing or not a valid .npy (naming it), and a file the model contradicts (its type,
// rank, a fixed dimension, or one symbolic dimension given two values: Session::CheckInputs's
// message, which names the input, the dimension and both values).
InputSet ReadInputSet(const onnx::Session& session, std::size_t number,
                      const std::map<std::string, std::string>& files);

}  // namespace backplane::sdk_run
