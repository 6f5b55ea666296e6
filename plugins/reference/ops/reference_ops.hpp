// The reference backend's ops: for each layer type it runs, a support check and a workload
// constructor, gathered in one table (op_table.cpp). The layer support and the workload
// factory only look up this table, so adding an op is: one file in ops/, one table row.
#pragma once

#include <backplane/backend/layer.hpp>
#include <backplane/backend/op_table.hpp>
#include <backplane/backend/workload.hpp>

#include <memory>
#include <string>

namespace backplane::reference {

// One row of the op table (backplane/backend/op_table.hpp).
struct OpKernel {
  backend::LayerType type;
  // True when CpuRef can run `layer`, otherwise false with the plain `why` ("input 0 is f16;
  // CpuRef runs Softmax on f32 only"). Runs only for layers with a descriptor that keep op set
  // v1's rules (the table checks them first), so it tests only CpuRef's own limits. Never throws.
  bool (*is_supported)(const backend::ILayerView& layer, std::string& why);
  // Builds the workload; may read (and repack) constant inputs. Called only for layers
  // is_supported accepted. Throws backplane::Exception on failure.
  std::unique_ptr<backend::IWorkload> (*create)(const backend::ILayerView& layer);
};

// CpuRef's op table: a row per layer type it runs (Input, Output and Constant layers need none:
// the runtime binds them). A static; thread-safe.
const backend::OpTable<OpKernel>& Ops();

// One workload constructor per op, each defined in ops/<op>.cpp. Most ops' support check is a
// shared one (the SDK's backend::AllFloat32 or backend::NoOwnLimits); an op with limits of its
// own has its own check, in its file.
std::unique_ptr<backend::IWorkload> CreateConvolution2dWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateFullyConnectedWorkload(const backend::ILayerView&);
bool IsMatMulSupported(const backend::ILayerView&, std::string& reason);
std::unique_ptr<backend::IWorkload> CreateMatMulWorkload(const backend::ILayerView&);
bool IsPooling2dSupported(const backend::ILayerView&, std::string& reason);
std::unique_ptr<backend::IWorkload> CreatePooling2dWorkload(const backend::ILayerView&);
bool IsActivationSupported(const backend::ILayerView&, std::string& reason);
std::unique_ptr<backend::IWorkload> CreateActivationWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateElementwiseBinaryWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateElementwiseUnaryWorkload(const backend::ILayerView&);
bool IsSoftmaxSupported(const backend::ILayerView&, std::string& reason);
std::unique_ptr<backend::IWorkload> CreateSoftmaxWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateBatchNormalizationWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateLayerNormalizationWorkload(const backend::ILayerView&);
bool IsReduceSupported(const backend::ILayerView&, std::string& reason);
std::unique_ptr<backend::IWorkload> CreateReduceWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateReshapeWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateFlattenWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateTransposeWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateConcatWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateSplitWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateSliceWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateGatherWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreatePadWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateCastWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateWhereWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateGatherElementsWorkload(const backend::ILayerView&);
bool IsArgMinMaxSupported(const backend::ILayerView&, std::string& reason);
std::unique_ptr<backend::IWorkload> CreateArgMinMaxWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateTriluWorkload(const backend::ILayerView&);
bool IsResizeSupported(const backend::ILayerView&, std::string& reason);
std::unique_ptr<backend::IWorkload> CreateResizeWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateConvolutionTransposeWorkload(const backend::ILayerView&);
bool IsTopKSupported(const backend::ILayerView&, std::string& reason);
std::unique_ptr<backend::IWorkload> CreateTopKWorkload(const backend::ILayerView&);
bool IsCumSumSupported(const backend::ILayerView&, std::string& reason);
std::unique_ptr<backend::IWorkload> CreateCumSumWorkload(const backend::ILayerView&);
bool IsScatterElementsSupported(const backend::ILayerView&, std::string& reason);
std::unique_ptr<backend::IWorkload> CreateScatterElementsWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateGatherNdWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateConvolutionNdWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreatePoolingNdWorkload(const backend::ILayerView&);
bool IsGridSampleSupported(const backend::ILayerView&, std::string& reason);
std::unique_ptr<backend::IWorkload> CreateGridSampleWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateMatMulIntegerWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateConvolutionIntegerWorkload(const backend::ILayerView&);
bool IsRecurrentSupported(const backend::ILayerView&, std::string& reason);
std::unique_ptr<backend::IWorkload> CreateRecurrentWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateNonZeroWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateCompressWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateUniqueWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateNonMaxSuppressionWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateDftWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateLrnWorkload(const backend::ILayerView&);
std::unique_ptr<backend::IWorkload> CreateDetWorkload(const backend::ILayerView&);
bool IsElementwiseBinarySupported(const backend::ILayerView&, std::string&);
bool IsElementwiseUnarySupported(const backend::ILayerView&, std::string&);
bool IsPadSupported(const backend::ILayerView&, std::string&);

}  // namespace backplane::reference
