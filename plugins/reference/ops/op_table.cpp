#include "reference_ops.hpp"

#include "tensor_access.hpp"

#include "../reference_backend.hpp"

#include <array>

namespace backplane::reference {

namespace {
using backend::LayerType;

// The f32 rule of the ops whose kernels take f32 only (the SDK's, naming CpuRef). The table runs
// the SDK's op schema before it, so it tests only CpuRef's own limit. The schema gives the
// outputs of these ops input 0's type, so they are f32 too.
constexpr backend::LayerCheck AllFloat32 = backend::AllFloat32<kReferenceBackendId>;

const std::array<OpKernel, 43> kOps{{
    {LayerType::kConvolution2d, AllFloat32, CreateConvolution2dWorkload},
    {LayerType::kFullyConnected, AllFloat32, CreateFullyConnectedWorkload},
    {LayerType::kMatMul, IsMatMulSupported, CreateMatMulWorkload},
    {LayerType::kPooling2d, IsPooling2dSupported, CreatePooling2dWorkload},
    {LayerType::kActivation, IsActivationSupported, CreateActivationWorkload},
    {LayerType::kElementwiseBinary, IsElementwiseBinarySupported, CreateElementwiseBinaryWorkload},
    {LayerType::kElementwiseUnary, IsElementwiseUnarySupported, CreateElementwiseUnaryWorkload},
    {LayerType::kSoftmax, IsSoftmaxSupported, CreateSoftmaxWorkload},
    {LayerType::kBatchNormalization, AllFloat32, CreateBatchNormalizationWorkload},
    {LayerType::kLayerNormalization, AllFloat32, CreateLayerNormalizationWorkload},
    {LayerType::kReduce, IsReduceSupported, CreateReduceWorkload},
    {LayerType::kReshape, backend::NoOwnLimits, CreateReshapeWorkload},
    {LayerType::kFlatten, backend::NoOwnLimits, CreateFlattenWorkload},
    {LayerType::kTranspose, backend::NoOwnLimits, CreateTransposeWorkload},
    {LayerType::kConcat, backend::NoOwnLimits, CreateConcatWorkload},
    {LayerType::kSplit, backend::NoOwnLimits, CreateSplitWorkload},
    {LayerType::kSlice, backend::NoOwnLimits, CreateSliceWorkload},
    {LayerType::kGather, backend::NoOwnLimits, CreateGatherWorkload},
    {LayerType::kPad, IsPadSupported, CreatePadWorkload},
    {LayerType::kCast, backend::NoOwnLimits, CreateCastWorkload},
    {LayerType::kWhere, backend::NoOwnLimits, CreateWhereWorkload},
    {LayerType::kGatherElements, backend::NoOwnLimits, CreateGatherElementsWorkload},
    {LayerType::kArgMinMax, IsArgMinMaxSupported, CreateArgMinMaxWorkload},
    {LayerType::kTrilu, backend::NoOwnLimits, CreateTriluWorkload},
    {LayerType::kResize, IsResizeSupported, CreateResizeWorkload},
    {LayerType::kConvolutionTranspose, AllFloat32, CreateConvolutionTransposeWorkload},
    {LayerType::kTopK, IsTopKSupported, CreateTopKWorkload},
    {LayerType::kCumSum, IsCumSumSupported, CreateCumSumWorkload},
    {LayerType::kScatterElements, IsScatterElementsSupported, CreateScatterElementsWorkload},
    {LayerType::kGatherNd, backend::NoOwnLimits, CreateGatherNdWorkload},
    {LayerType::kConvolutionNd, AllFloat32, CreateConvolutionNdWorkload},
    {LayerType::kPoolingNd, AllFloat32, CreatePoolingNdWorkload},
    {LayerType::kGridSample, IsGridSampleSupported, CreateGridSampleWorkload},
    {LayerType::kMatMulInteger, backend::NoOwnLimits, CreateMatMulIntegerWorkload},  // the schema's i8 / u8 rule
    {LayerType::kConvolutionInteger, backend::NoOwnLimits, CreateConvolutionIntegerWorkload},
    {LayerType::kRecurrent, IsRecurrentSupported, CreateRecurrentWorkload},
    {LayerType::kDft, backend::NoOwnLimits, CreateDftWorkload},  // the schema's floating-point rule
    {LayerType::kLrn, backend::NoOwnLimits, CreateLrnWorkload},
    {LayerType::kDet, backend::NoOwnLimits, CreateDetWorkload},
    {LayerType::kNonZero, backend::NoOwnLimits, CreateNonZeroWorkload},  // every type
    {LayerType::kCompress, backend::NoOwnLimits, CreateCompressWorkload},  // every type
    {LayerType::kUnique, backend::NoOwnLimits, CreateUniqueWorkload},  // the schema's numbers
    {LayerType::kNonMaxSuppression, backend::NoOwnLimits, CreateNonMaxSuppressionWorkload},  // the schema's f32
}};
}  // namespace

const backend::OpTable<OpKernel>& Ops() {
  static const backend::OpTable<OpKernel> table(kReferenceBackendId, kOps);
  return table;
}

}  // namespace backplane::reference
