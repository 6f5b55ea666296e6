// The tensors one execution context runs with: the inputs bound by name and freshly
// allocated outputs.
#pragma once

#include "host_tensor.hpp"

#include <backplane/execution.hpp>

#include <vector>

namespace backplane::sdk_run {

// Move-only: `outputs` view the buffers of `output_tensors` (moving keeps the buffers where
// they are); `inputs` view tensors the caller keeps alive.
struct Bindings {
  Bindings() = default;
  Bindings(Bindings&&) = default;
  Bindings& operator=(Bindings&&) = default;
  Bindings(const Bindings&) = delete;
  Bindings& operator=(const Bindings&) = delete;

  std::vector<InputBinding> inputs;
  std::vector<HostTensor> output_tensors;  // signature order
  std::vector<OutputBinding> outputs;
};

// Binds `inputs` to the signature's inputs by name and allocates zeroed outputs. Throws
// ToolError (kBadInput) naming the input when one is missing, unknown, or has another type or
// shape than the signature's.
Bindings MakeBindings(const NetworkSignature& signature, const std::vector<HostTensor>& inputs);

}  // namespace backplane::sdk_run
