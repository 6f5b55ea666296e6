// CpuOneDnn's op table: one row per layer type it runs (the ops themselves: ops/<op>.cpp).
#include "onednn_ops.hpp"

#include "../onednn_backend.hpp"

#include <array>

namespace backplane::onednn {

namespace {
using backend::LayerType;

const std::array<OpKernel, 16> kOps{{
    {LayerType::kConvolution2d, IsConvolution2dSupported, CreateConvolution2d, true},
    {LayerType::kFullyConnected, IsFullyConnectedSupported, CreateFullyConnected, true},
    {LayerType::kMatMul, IsMatMulSupported, CreateMatMul, true},
    {LayerType::kPooling2d, IsPooling2dSupported, CreatePooling2d, false},
    {LayerType::kActivation, IsActivationSupported, CreateActivation, false},
    {LayerType::kElementwiseBinary, IsElementwiseBinarySupported, CreateElementwiseBinary, false},
    {LayerType::kElementwiseUnary, IsElementwiseUnarySupported, CreateElementwiseUnary, false},
    {LayerType::kSoftmax, IsSoftmaxSupported, CreateSoftmax, false},
    {LayerType::kReduce, IsReduceSupported, CreateReduce, false},
    {LayerType::kBatchNormalization, IsBatchNormalizationSupported, CreateBatchNormalization, false},
    {LayerType::kLayerNormalization, IsLayerNormalizationSupported, CreateLayerNormalization, false},
    {LayerType::kConcat, IsConcatSupported, CreateConcat, false},
    {LayerType::kTranspose, IsTransposeSupported, CreateTranspose, false},
    {LayerType::kReshape, AllFloat32, CreateReshape, false},
    {LayerType::kFlatten, AllFloat32, CreateReshape, false},
    {LayerType::kSlice, IsSliceSupported, CreateSlice, false},
}};
}  // namespace

const backend::OpTable<OpKernel>& Ops() {
  static const backend::OpTable<OpKernel> table(kOneDnnBackendId, kOps);
  return table;
}

}  // namespace backplane::onednn
