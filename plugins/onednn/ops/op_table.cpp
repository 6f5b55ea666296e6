// CpuOneDnn's op table: one row per layer type it runs (the ops themselves: ops/<op>.cpp).
#include "onednn_ops.hpp"

#include "../onednn_backend.hpp"

#include <array>

namespace backplane::onednn {

namespace {
using backend::LayerType;

// Type, support check, create, takes post-ops, threads fixed at creation (OpKernel).
const std::array<OpKernel, 23> kOps{{
    {LayerType::kConvolution2d, IsF32WithConstantWeights, CreateConvolution2dWorkload, true, true},
    {LayerType::kFullyConnected, IsFullyConnectedSupported, CreateFullyConnectedWorkload, true, true},
    {LayerType::kMatMul, IsMatMulSupported, CreateMatMulWorkload, true, true},
    {LayerType::kPooling2d, IsPooling2dSupported, CreatePooling2dWorkload, false, true},
    {LayerType::kActivation, IsActivationSupported, CreateActivationWorkload, false, false},
    {LayerType::kElementwiseBinary, IsElementwiseBinarySupported, CreateElementwiseBinaryWorkload, false, false},
    {LayerType::kElementwiseUnary, IsElementwiseUnarySupported, CreateElementwiseUnaryWorkload, false, false},
    {LayerType::kSoftmax, IsSoftmaxSupported, CreateSoftmaxWorkload, false, true},
    {LayerType::kReduce, IsReduceSupported, CreateReduceWorkload, false, true},
    {LayerType::kBatchNormalization, IsBatchNormalizationSupported, CreateBatchNormalizationWorkload, false, true},
    {LayerType::kLayerNormalization, IsLayerNormalizationSupported, CreateLayerNormalizationWorkload, false, true},
    {LayerType::kConcat, IsConcatSupported, CreateConcatWorkload, false, true},
    {LayerType::kTranspose, IsTransposeSupported, CreateTransposeWorkload, false, true},
    {LayerType::kReshape, AllFloat32, CreateReshapeWorkload, false, true},
    {LayerType::kFlatten, AllFloat32, CreateReshapeWorkload, false, true},
    {LayerType::kSlice, IsSliceSupported, CreateSliceWorkload, false, true},
    {LayerType::kSplit, IsSplitSupported, CreateSplitWorkload, false, true},
    {LayerType::kConvolutionTranspose, IsF32WithConstantWeights, CreateConvolutionTransposeWorkload, false, true},
    {LayerType::kResize, IsResizeSupported, CreateResizeWorkload, false, true},
    {LayerType::kConvolutionNd, IsF32WithConstantWeights, CreateConvolutionNdWorkload, true, true},
    {LayerType::kPoolingNd, IsPoolingNdSupported, CreatePoolingNdWorkload, false, true},
    {LayerType::kRecurrent, IsRecurrentSupported, CreateRecurrentWorkload, false, true},
    {LayerType::kLrn, IsLrnSupported, CreateLrnWorkload, false, true},
}};
}  // namespace

const backend::OpTable<OpKernel>& Ops() {
  static const backend::OpTable<OpKernel> table(kOneDnnBackendId, kOps);
  return table;
}

}  // namespace backplane::onednn
