#include "op_kernels.hpp"

#include "../opencl_backend.hpp"

#include <array>

namespace backplane::opencl {

namespace {
using backend::LayerType;

const std::array<OpKernel, 20> kOps{{
    {LayerType::kConvolution2d, IsConvolution2dSupported, CreateConvolution2dWorkload},
    {LayerType::kFullyConnected, IsFullyConnectedSupported, CreateFullyConnectedWorkload},
    {LayerType::kMatMul, IsMatMulSupported, CreateMatMulWorkload},
    {LayerType::kPooling2d, IsPooling2dSupported, CreatePooling2dWorkload},
    {LayerType::kActivation, IsActivationSupported, CreateActivationWorkload},
    {LayerType::kElementwiseBinary, IsElementwiseBinarySupported, CreateElementwiseBinaryWorkload},
    {LayerType::kElementwiseUnary, IsElementwiseUnarySupported, CreateElementwiseUnaryWorkload},
    {LayerType::kSoftmax, IsSoftmaxSupported, CreateSoftmaxWorkload},
    {LayerType::kBatchNormalization, IsBatchNormalizationSupported, CreateBatchNormalizationWorkload},
    {LayerType::kLayerNormalization, IsLayerNormalizationSupported, CreateLayerNormalizationWorkload},
    {LayerType::kReduce, IsReduceSupported, CreateReduceWorkload},
    {LayerType::kReshape, IsReshapeSupported, CreateReshapeWorkload},
    {LayerType::kFlatten, IsFlattenSupported, CreateFlattenWorkload},
    {LayerType::kTranspose, IsTransposeSupported, CreateTransposeWorkload},
    {LayerType::kConcat, IsConcatSupported, CreateConcatWorkload},
    {LayerType::kSplit, IsSplitSupported, CreateSplitWorkload},
    {LayerType::kSlice, IsSliceSupported, CreateSliceWorkload},
    {LayerType::kGather, IsGatherSupported, CreateGatherWorkload},
    {LayerType::kPad, IsPadSupported, CreatePadWorkload},
    {LayerType::kCast, IsCastSupported, CreateCastWorkload},
}};

// f32 everywhere, except Gather's indices (i32 or i64) and Cast, which checks its own types.
bool TypesSupported(const backend::ILayerView& layer, std::string& reason) {
  const LayerType type = layer.GetType();
  if (type == LayerType::kCast) return true;
  const std::string op = backend::ToString(type);
  for (std::size_t i = 0; i < layer.GetNumInputs(); ++i) {
    const DataType t = layer.GetInputInfo(i).type;
    if (type == LayerType::kGather && i == 1) {
      if (t == DataType::kInt32 || t == DataType::kInt64) continue;
      reason = "Gather indices (input 1) are " + std::string(ToString(t)) + "; they must be i32 or i64";
      return false;
    }
    if (t != DataType::kFloat32) {
      reason = "input " + std::to_string(i) + " is " + ToString(t) + "; GpuOpenCl runs " + op + " on f32 only";
      return false;
    }
  }
  for (std::size_t i = 0; i < layer.GetNumOutputs(); ++i) {
    const DataType t = layer.GetOutputInfo(i).type;
    if (t != DataType::kFloat32) {
      reason = "output " + std::to_string(i) + " is " + ToString(t) + "; GpuOpenCl runs " + op + " on f32 only";
      return false;
    }
  }
  return true;
}

}  // namespace

const backend::OpTable<OpKernel>& Ops() {
  static const backend::OpTable<OpKernel> table(kOpenClBackendId, kOps, TypesSupported);
  return table;
}

}  // namespace backplane::opencl
