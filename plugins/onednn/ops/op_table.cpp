// CpuOneDnn's op table: one row per layer type it runs (the ops themselves: ops/<op>.cpp).
#include "onednn_ops.hpp"

#include "../onednn_backend.hpp"

#include <array>

namespace backplane::onednn {

namespace {
using backend::LayerType;

const std::array<OpKernel, 16> kOps{{
    {LayerType::kConvolution2d, IsConvolution2dSupported, CreateConvolution2dWorkload, true},
    {LayerType::kFullyConnected, IsFullyConnectedSupported, CreateFullyConnectedWorkload, true},
    {LayerType::kMatMul, IsMatMulSupported, CreateMatMulWorkload, true},
    {LayerType::kPooling2d, IsPooling2dSupported, CreatePooling2dWorkload, false},
    {LayerType::kActivation, IsActivationSupported, CreateActivationWorkload, false},
    {LayerType::kElementwiseBinary, IsElementwiseBinarySupported, CreateElementwiseBinaryWorkload, false},
    {LayerType::kElementwiseUnary, IsElementwiseUnarySupported, CreateElementwiseUnaryWorkload, false},
    {LayerType::kSoftmax, IsSoftmaxSupported, CreateSoftmaxWorkload, false},
    {LayerType::kReduce, IsReduceSupported, CreateReduceWorkload, false},
    {LayerType::kBatchNormalization, IsBatchNormalizationSupported, CreateBatchNormalizationWorkload, false},
    {LayerType::kLayerNormalization, IsLayerNormalizationSupported, CreateLayerNormalizationWorkload, false},
    {LayerType::kConcat, IsConcatSupported, CreateConcatWorkload, false},
    {LayerType::kTranspose, IsTransposeSupported, CreateTransposeWorkload, false},
    {LayerType::kReshape, AllFloat32, CreateReshapeWorkload, false},
    {LayerType::kFlatten, AllFloat32, CreateReshapeWorkload, false},
    {LayerType::kSlice, IsSliceSupported, CreateSliceWorkload, false},
}};
}  // namespace

const backend::OpTable<OpKernel>& Ops() {
  static const backend::OpTable<OpKernel> table(kOneDnnBackendId, kOps);
  return table;
}

}  // namespace backplane::onednn
