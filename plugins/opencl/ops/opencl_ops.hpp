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
#include <backplane/backend/workload.hpp>

#include <memory>
#include <string>
#include <vector>

namespace backplane::opencl {

struct OpKernel {
  backend::LayerType type;
  // True when this op can run `layer` exactly as described (shapes, types, descriptor);
  // otherwise false with `reason` saying what is not supported. Never throws.
  bool (*is_supported)(const backend::ILayerView& layer, std::string& reason);
  // Builds the workload: compiles (or fetches) its programs, creates its kernels, uploads
  // constant inputs (weights) to device buffers once. Called only for layers is_supported
  // accepted. Throws backplane::Exception on failure.
  std::unique_ptr<backend::IWorkload> (*create)(const backend::ILayerView& layer, OpenClDevice& device);
};

// The row for `type`, or null when there is none (Input, Output and Constant need none).
const OpKernel* FindOpKernel(backend::LayerType type);

// Whether `op` can run `layer`: f32 tensors only (i64 only where an op needs indices, as
// Gather), a descriptor present, then the op's own check. Never throws.
bool IsSupported(const OpKernel& op, const backend::ILayerView& layer, std::string& reason);

// The layer types in the table, in table order.
std::vector<backend::LayerType> SupportedLayerTypes();

}  // namespace backplane::opencl
