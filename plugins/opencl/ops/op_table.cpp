#include "op_kernels.hpp"
#include "op_support.hpp"

#include "../opencl_backend.hpp"

#include <array>

namespace backplane::opencl {

namespace {
using backend::LayerType;

const std::array<OpKernel, 24> kOps{{
    {LayerType::kConvolution2d, IsConvolution2dSupported, CreateConvolution2dWorkload},
    {LayerType::kFullyConnected, IsFullyConnectedSupported, CreateFullyConnectedWorkload},
    {LayerType::kMatMul, IsMatMulSupported, CreateMatMulWorkload},
    {LayerType::kPooling2d, InputFitsKernelIndexing, CreatePooling2dWorkload},
    {LayerType::kActivation, InputFitsKernelIndexing, CreateActivationWorkload},
    {LayerType::kElementwiseBinary, IsElementwiseBinarySupported, CreateElementwiseBinaryWorkload},
    {LayerType::kElementwiseUnary, InputFitsKernelIndexing, CreateElementwiseUnaryWorkload},
    {LayerType::kSoftmax, InputFitsKernelIndexing, CreateSoftmaxWorkload},
    {LayerType::kBatchNormalization, InputFitsKernelIndexing, CreateBatchNormalizationWorkload},
    {LayerType::kLayerNormalization, InputFitsKernelIndexing, CreateLayerNormalizationWorkload},
    {LayerType::kReduce, IsReduceSupported, CreateReduceWorkload},
    {LayerType::kReshape, backend::NoOwnLimits, CreateReshapeWorkload},
    {LayerType::kFlatten, backend::NoOwnLimits, CreateFlattenWorkload},
    {LayerType::kTranspose, InputFitsKernelIndexing, CreateTransposeWorkload},
    {LayerType::kConcat, IsConcatSupported, CreateConcatWorkload},
    {LayerType::kSplit, InputFitsKernelIndexing, CreateSplitWorkload},
    {LayerType::kSlice, InputFitsKernelIndexing, CreateSliceWorkload},
    {LayerType::kGather, IsGatherSupported, CreateGatherWorkload},
    {LayerType::kPad, IsPadSupported, CreatePadWorkload},
    {LayerType::kCast, IsCastSupported, CreateCastWorkload},
    {LayerType::kResize, IsResizeSupported, CreateResizeWorkload},
    {LayerType::kConvolutionTranspose, IsConvolutionTransposeSupported, CreateConvolutionTransposeWorkload},
    {LayerType::kConvolutionNd, IsConvolutionNdSupported, CreateConvolutionNdWorkload},
    {LayerType::kPoolingNd, InputFitsKernelIndexing, CreatePoolingNdWorkload},
}};

// f32 inputs everywhere, except Gather's indices (the op schema allows i32 or i64, and the
// kernel reads both) and Cast, which checks its own types. The schema gives every other op's
// outputs input 0's type, so they are f32 too.
bool TypesSupported(const backend::ILayerView& layer, std::string& reason) {
  const LayerType type = layer.GetType();
  if (type == LayerType::kCast) return true;
  const std::size_t inputs = type == LayerType::kGather ? 1 : layer.GetNumInputs();
  return backend::InputsAreFloat32(kOpenClBackendId, layer, inputs, reason);
}

}  // namespace

const backend::OpTable<OpKernel>& Ops() {
  static const backend::OpTable<OpKernel> table(kOpenClBackendId, kOps, TypesSupported);
  return table;
}

}  // namespace backplane::opencl
