// The oneDNN backend's ops (this folder): for each layer type it runs, a support check and a
// workload constructor (ops/<op>.cpp), gathered in one table (op_table.cpp) that the layer
// support, the workload factory and the fusion pass (fusion/) look up. An op is created from an
// OpSpec (op_spec.hpp): the layer's descriptor and tensors plus the post-ops fused into it
// (post_ops.hpp), so a plain layer and a fused PreCompiled layer go through the same code. The
// folder also owns the layout activations pass in (activation_layout.hpp), the oneDNN primitive
// every op runs (primitive_workload.hpp) and what a workload says about its kernel
// (implementation.hpp); the convolution's ordered implementation list is
// convolution_candidates.hpp.
#pragma once

#include "activation_layout.hpp"
#include "op_spec.hpp"
#include "post_ops.hpp"
#include "../dnnl_desc.hpp"
#include "../onednn_backend.hpp"
#include "../onednn_backend_context.hpp"

#include <backplane/backend/layer.hpp>
#include <backplane/backend/op_geometry.hpp>
#include <backplane/backend/op_table.hpp>
#include <backplane/backend/workload.hpp>
#include <backplane/descriptors.hpp>

#include <oneapi/dnnl/dnnl.hpp>

#include <memory>
#include <string>

namespace backplane::onednn {

// One row of the op table (backplane/backend/op_table.hpp).
struct OpKernel {
  backend::LayerType type;
  // True when CpuOneDnn can run `layer`, otherwise false with the plain `why` (no backend or
  // layer name). Runs only for layers with a descriptor that keep op set v1's rules (the table
  // checks them first), so it tests only CpuOneDnn's own limits. Should not throw (the table
  // turns an exception into a refusal).
  bool (*is_supported)(const backend::ILayerView& layer, std::string& why);
  // Builds the workload (primitives, packed weights). Throws backplane::Exception.
  std::unique_ptr<backend::IWorkload> (*create)(const OpSpec& spec, const ExecutionSettingsPtr& execution);
  // Whether post-ops may be fused into it (OptimizeSubgraph).
  bool takes_post_ops;
  // Whether its primitives split their work for the thread count they are created with
  // (convolutions, matrix products; kept where unsure): its one-thread variant for adaptive
  // threads is then created apart. Otherwise (elementwise ops, which size their work split when
  // they run) one workload serves both, run in a OneThreadScope: half the primitives.
  bool threads_fixed_at_creation;
};

// CpuOneDnn's op table: a row per layer type it runs (PreCompiled layers, which fusion/
// makes, go to CreateFusedWorkload instead). A static; thread-safe.
const backend::OpTable<OpKernel>& Ops();

// ---- support checks several ops share (layer_support.cpp) -----------------------------------

// True when every input is f32 (else a reason naming the first that is not): the SDK's rule
// (backplane/backend/op_table.hpp) naming CpuOneDnn. The op schema gives the outputs of every
// op in the table input 0's type, so they are f32 too. The whole support check of Reshape and
// Flatten.
inline constexpr backend::LayerCheck AllFloat32 = backend::AllFloat32<kOneDnnBackendId>;
// The most dimensions a oneDNN memory descriptor has (DNNL_MAX_NDIMS).
inline constexpr std::size_t kMaxOneDnnRank = 12;
// True when `shape` has at most kMaxOneDnnRank dimensions, else false with a reason.
bool FitsOneDnnRank(const TensorShape& shape, std::string& reason);
// True when the layer is f32 and its weights (input 1) and bias (input 2, when it has one) are
// constants, else false with the reason: the whole support check of the convolutions, whose
// weights are packed once at load.
bool IsF32WithConstantWeights(const backend::ILayerView& layer, std::string& reason);
// The SDK's axis normalization (backplane/backend/op_geometry.hpp), used unqualified.
using backend::NormalizeAxis;

// One pair per op, each defined in ops/<op>.cpp.
std::unique_ptr<backend::IWorkload> CreateConvolution2dWorkload(const OpSpec&, const ExecutionSettingsPtr&);
std::unique_ptr<backend::IWorkload> CreateConvolutionTransposeWorkload(const OpSpec&, const ExecutionSettingsPtr&);
std::unique_ptr<backend::IWorkload> CreateConvolutionNdWorkload(const OpSpec&, const ExecutionSettingsPtr&);
bool IsFullyConnectedSupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateFullyConnectedWorkload(const OpSpec&, const ExecutionSettingsPtr&);
bool IsMatMulSupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateMatMulWorkload(const OpSpec&, const ExecutionSettingsPtr&);
bool IsPooling2dSupported(const backend::ILayerView&, std::string&);
bool IsResizeSupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateResizeWorkload(const OpSpec&, const ExecutionSettingsPtr&);
std::unique_ptr<backend::IWorkload> CreatePooling2dWorkload(const OpSpec&, const ExecutionSettingsPtr&);
bool IsPoolingNdSupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreatePoolingNdWorkload(const OpSpec&, const ExecutionSettingsPtr&);
bool IsActivationSupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateActivationWorkload(const OpSpec&, const ExecutionSettingsPtr&);
bool IsElementwiseUnarySupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateElementwiseUnaryWorkload(const OpSpec&, const ExecutionSettingsPtr&);
bool IsElementwiseBinarySupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateElementwiseBinaryWorkload(const OpSpec&, const ExecutionSettingsPtr&);
bool IsReduceSupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateReduceWorkload(const OpSpec&, const ExecutionSettingsPtr&);
bool IsSoftmaxSupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateSoftmaxWorkload(const OpSpec&, const ExecutionSettingsPtr&);
bool IsBatchNormalizationSupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateBatchNormalizationWorkload(const OpSpec&, const ExecutionSettingsPtr&);
bool IsLrnSupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateLrnWorkload(const OpSpec&, const ExecutionSettingsPtr&);
bool IsLayerNormalizationSupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateLayerNormalizationWorkload(const OpSpec&, const ExecutionSettingsPtr&);
bool IsConcatSupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateConcatWorkload(const OpSpec&, const ExecutionSettingsPtr&);
bool IsTransposeSupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateTransposeWorkload(const OpSpec&, const ExecutionSettingsPtr&);
// Reshape and Flatten (their support check is AllFloat32).
std::unique_ptr<backend::IWorkload> CreateReshapeWorkload(const OpSpec&, const ExecutionSettingsPtr&);
bool IsSliceSupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateSliceWorkload(const OpSpec&, const ExecutionSettingsPtr&);
bool IsSplitSupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateSplitWorkload(const OpSpec&, const ExecutionSettingsPtr&);
// ElementwiseUnary ops run as a plain loop, not by oneDNN (ops/exact_unary.cpp: Erf, Log);
// ElementwiseUnary dispatches to it for those HasExactUnaryLoop names.
bool IsRecurrentSupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateRecurrentWorkload(const OpSpec&, const ExecutionSettingsPtr&);
bool HasExactUnaryLoop(UnaryOperation operation);
std::unique_ptr<backend::IWorkload> CreateExactUnaryWorkload(const OpSpec&, const ExecutionSettingsPtr&);

}  // namespace backplane::onednn
