#include "reference_ops.hpp"

#include "../reference_backend.hpp"

#include <array>

namespace backplane::reference {

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
}  // namespace

const backend::OpTable<OpKernel>& Ops() {
  static const backend::OpTable<OpKernel> table(kReferenceBackendId, kOps);
  return table;
}

}  // namespace backplane::reference
