#include "reference_ops.hpp"

#include <backplane/backend/op_table.hpp>

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

const OpKernel* FindOpKernel(backend::LayerType type) { return backend::FindRow(kOps, type); }

bool IsSupported(const OpKernel& op, const backend::ILayerView& layer, std::string& reason) {
  if (!backend::HasDescriptor(layer, reason)) return false;
  return op.is_supported(layer, reason);
}

std::vector<backend::LayerType> SupportedLayerTypes() { return backend::LayerTypesOf(kOps); }

}  // namespace backplane::reference
