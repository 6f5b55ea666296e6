// The per-op support checks and workload constructors of the GpuOpenCl backend, one pair per
// ops/<op>.cpp, gathered into the table in op_table.cpp. Support functions never throw;
// constructors run only for layers their support function accepted.
#pragma once

#include "opencl_ops.hpp"

namespace backplane::opencl {

#define BACKPLANE_OPENCL_OP(Name)                                                     \
  bool Is##Name##Supported(const backend::ILayerView& layer, std::string& reason);   \
  std::unique_ptr<backend::IWorkload> Create##Name##Workload(const backend::ILayerView& layer, OpenClDevice& device);

BACKPLANE_OPENCL_OP(Convolution2d)
BACKPLANE_OPENCL_OP(FullyConnected)
BACKPLANE_OPENCL_OP(MatMul)
BACKPLANE_OPENCL_OP(Pooling2d)
BACKPLANE_OPENCL_OP(Activation)
BACKPLANE_OPENCL_OP(ElementwiseBinary)
BACKPLANE_OPENCL_OP(ElementwiseUnary)
BACKPLANE_OPENCL_OP(Softmax)
BACKPLANE_OPENCL_OP(BatchNormalization)
BACKPLANE_OPENCL_OP(LayerNormalization)
BACKPLANE_OPENCL_OP(Reduce)
BACKPLANE_OPENCL_OP(Reshape)
BACKPLANE_OPENCL_OP(Flatten)
BACKPLANE_OPENCL_OP(Transpose)
BACKPLANE_OPENCL_OP(Concat)
BACKPLANE_OPENCL_OP(Split)
BACKPLANE_OPENCL_OP(Slice)
BACKPLANE_OPENCL_OP(Gather)
BACKPLANE_OPENCL_OP(Pad)
BACKPLANE_OPENCL_OP(Cast)

#undef BACKPLANE_OPENCL_OP

}  // namespace backplane::opencl
