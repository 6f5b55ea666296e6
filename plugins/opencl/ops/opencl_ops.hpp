// The GpuOpenCl backend's ops: for each layer type it runs, a support check and a workload
// constructor, gathered in one table (op_table.cpp), as in the reference backend. The layer
// support and the workload factory only look up this table.
//
// Workloads read and write OpenClBufferHandle tensors (the runtime copies at CPU<->device
// edges), enqueue kernels on device.Queue() under device.LaunchMutex() and do not wait for
// them: the next map of a buffer (by the runtime, at an edge or an output) waits. Kernel
// sources live in kernels/*.cl, compiled into the plugin as strings (kernels/CMakeLists.txt)
// and built through device.GetProgram, so they are cached on disk.
#pragma once

#include "../opencl_device.hpp"

#include <backplane/backend/layer.hpp>
#include <backplane/backend/op_table.hpp>
#include <backplane/backend/workload.hpp>

#include <memory>
#include <string>

namespace backplane::opencl {

// One row of the op table (backplane/backend/op_table.hpp).
struct OpKernel {
  backend::LayerType type;
  // True when GpuOpenCl can run `layer`, otherwise false with the plain `why` (no backend or
  // layer name; see Fail in op_support.hpp). Runs only for layers with a descriptor that keep op
  // set v1's rules and whose tensor types the table accepted, so it tests only the kernels' own
  // limits. Never throws.
  bool (*is_supported)(const backend::ILayerView& layer, std::string& why);
  // Builds the workload: compiles (or fetches) its programs, creates its kernels, uploads
  // constant inputs (weights) to device buffers once. Called only for layers is_supported
  // accepted. Throws backplane::Exception on failure.
  std::unique_ptr<backend::IWorkload> (*create)(const backend::ILayerView& layer, OpenClDevice& device);
};

// GpuOpenCl's op table: a row per layer type it runs (Input, Output and Constant need none).
// Before a row's own check, the table runs the op schema, then requires f32 tensors (but
// Gather's indices, i32 or i64 by the schema; Cast checks its own types). A static; thread-safe.
const backend::OpTable<OpKernel>& Ops();

}  // namespace backplane::opencl
