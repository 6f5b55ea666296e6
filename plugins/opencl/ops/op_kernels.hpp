// The workload constructors of the GpuOpenCl backend, one per ops/<op>.cpp, and the support
// checks of the ops with limits of their own beyond the ones the table's rows share
// (op_support.hpp), gathered into the table in op_table.cpp. Support functions never throw;
// constructors run only for layers their row's support check accepted.
#pragma once

#include "opencl_ops.hpp"

namespace backplane::opencl {

#define BACKPLANE_OPENCL_OP(Name) \
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
BACKPLANE_OPENCL_OP(Resize)
BACKPLANE_OPENCL_OP(ConvolutionTranspose)
BACKPLANE_OPENCL_OP(ConvolutionNd)
BACKPLANE_OPENCL_OP(PoolingNd)

#undef BACKPLANE_OPENCL_OP

// The anchors of a fused layer (../fusion.hpp): the same workloads, with `epilogue` after the
// product. `layer` shows the anchor (its type, descriptor and inputs) while the run's inputs
// are the fused layer's, the anchor's first.
struct Epilogue;
std::unique_ptr<backend::IWorkload> CreateConvolution2dWorkload(const backend::ILayerView& layer, OpenClDevice& device,
                                                                const Epilogue& epilogue);
std::unique_ptr<backend::IWorkload> CreateFullyConnectedWorkload(const backend::ILayerView& layer,
                                                                 OpenClDevice& device, const Epilogue& epilogue);
std::unique_ptr<backend::IWorkload> CreateMatMulWorkload(const backend::ILayerView& layer, OpenClDevice& device,
                                                         const Epilogue& epilogue);

bool IsConvolution2dSupported(const backend::ILayerView& layer, std::string& reason);
bool IsFullyConnectedSupported(const backend::ILayerView& layer, std::string& reason);
bool IsMatMulSupported(const backend::ILayerView& layer, std::string& reason);
bool IsElementwiseBinarySupported(const backend::ILayerView& layer, std::string& reason);
bool IsConcatSupported(const backend::ILayerView& layer, std::string& reason);
// Mean and sum only (the kernels add), over an input that fits kernel indexing.
bool IsReduceSupported(const backend::ILayerView& layer, std::string& reason);
bool IsGatherSupported(const backend::ILayerView& layer, std::string& reason);
bool IsPadSupported(const backend::ILayerView& layer, std::string& reason);
bool IsCastSupported(const backend::ILayerView& layer, std::string& reason);
// Any mode and coordinate transformation; refuses tap tables or tap products too large for the
// kernel (resize.cpp).
bool IsResizeSupported(const backend::ILayerView& layer, std::string& reason);
// Their geometry (backend/op_geometry.hpp) and tensors that fit kernel indexing.
bool IsConvolutionTransposeSupported(const backend::ILayerView& layer, std::string& reason);
bool IsConvolutionNdSupported(const backend::ILayerView& layer, std::string& reason);

}  // namespace backplane::opencl
