// The oneDNN backend's ops: for each layer type it runs, a support check and a workload
// constructor, gathered in one table (op_table.cpp) that the layer support, the workload
// factory and the fusion pass look up. An op is created from an OpSpec: the layer's
// descriptor and tensors plus the post-ops fused into it, so a plain layer and a fused
// PreCompiled layer go through the same code.
#pragma once

#include "../onednn_backend_context.hpp"

#include <backplane/backend/layer.hpp>
#include <backplane/backend/op_geometry.hpp>
#include <backplane/backend/op_table.hpp>
#include <backplane/backend/workload.hpp>
#include <backplane/descriptors.hpp>

#include <oneapi/dnnl/dnnl.hpp>

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace backplane::onednn {

// One tensor an op reads: its info, its data when constant (valid while the network is
// loaded), and its position in WorkloadArgs::inputs when it is not.
struct TensorRef {
  TensorInfo info;
  const void* constant = nullptr;
  std::size_t index = 0;
  // Data movement folded into the reader (fusion.hpp): when set, the op reads the tensor's
  // dense bytes through this strided view, starting `view_offset` elements in, instead of in
  // the tensor's own shape. Run-time tensors only.
  std::optional<dnnl::memory::desc> view;
  std::int64_t view_offset = 0;
};

// One elementwise step oneDNN applies after the main computation (a post-op), or as the whole
// computation of an eltwise primitive.
struct EltwiseStep {
  dnnl::algorithm algorithm = dnnl::algorithm::eltwise_relu;
  float alpha = 0.0f;
  float beta = 0.0f;
};

struct PostOp {
  enum class Kind { kEltwise, kBinary };
  static PostOp Eltwise(const EltwiseStep& step) {
    PostOp post_op;
    post_op.eltwise = step;
    return post_op;
  }
  Kind kind = Kind::kEltwise;
  EltwiseStep eltwise;                                       // kEltwise
  dnnl::algorithm binary = dnnl::algorithm::binary_add;      // kBinary: dst = dst (op) operand
  TensorRef operand;                                         // kBinary
};

// What an op is asked to build. Descriptor: the layer's (type `type`), alive during creation.
struct OpSpec {
  std::string name;
  backend::LayerType type = backend::LayerType::kInput;
  const LayerDescriptor* descriptor = nullptr;
  std::vector<TensorRef> inputs;
  TensorInfo output;
  std::vector<PostOp> post_ops;
  // A folded Transpose after the op: it writes its result through this strided view (in its
  // own result's dims) of the output tensor's dense bytes. Its post-ops are then elementwise
  // only (a binary operand would be read in the untransposed dims).
  std::optional<dnnl::memory::desc> output_view;
  // How many layer inputs read the output (ILayerView::GetOutputConsumerCount; SIZE_MAX when
  // unknown). Plain layers only.
  std::size_t output_readers = SIZE_MAX;
  // Convolutions: a run-time tensor [1, C, 1, 1] that input 0 is multiplied by, channel by
  // channel, before the convolution (a squeeze-and-excitation gate folded by fusion.cpp). The
  // convolution scales its weights by it each run instead: conv(x * s, W) = conv(x, W * s).
  std::optional<TensorRef> input_channel_scale;
};

// Input `input` of `layer` as WorkloadArgs input `input`, read in its own shape.
TensorRef InputRef(const backend::ILayerView& layer, std::size_t input);
// The spec of a plain (unfused) layer: input i is WorkloadArgs input i.
OpSpec SpecOf(const backend::ILayerView& layer);

using ExecutionPtr = std::shared_ptr<const Execution>;

// One row of the op table (backplane/backend/op_table.hpp).
struct OpKernel {
  backend::LayerType type;
  // True when CpuOneDnn can run `layer`, otherwise false with the plain `why` (no backend or
  // layer name). Runs only for layers with a descriptor that keep op set v1's rules (the table
  // checks them first), so it tests only CpuOneDnn's own limits. Should not throw (the table
  // turns an exception into a refusal).
  bool (*is_supported)(const backend::ILayerView& layer, std::string& why);
  // Builds the workload (primitives, packed weights). Throws backplane::Exception.
  std::unique_ptr<backend::IWorkload> (*create)(const OpSpec& spec, const ExecutionPtr& execution);
  // Whether post-ops may be fused into it (OptimizeSubgraph).
  bool takes_post_ops;
};

// CpuOneDnn's op table: a row per layer type it runs (PreCompiled layers, which fusion.cpp
// makes, go to CreateFusedWorkload instead). A static; thread-safe.
const backend::OpTable<OpKernel>& Ops();

// ---- shared helpers (op_table.cpp) ----------------------------------------------------------

// The eltwise steps of an activation; false with a reason when oneDNN has none.
bool ActivationSteps(const ActivationDescriptor& descriptor, std::vector<EltwiseStep>& steps, std::string& reason);
bool UnarySteps(UnaryOperation operation, std::vector<EltwiseStep>& steps, std::string& reason);
// Whether `step` maps 0 to 0 (ReLU, clip around 0, SiLU, GELU, ...; not sigmoid).
bool KeepsZero(const EltwiseStep& step);
// binary_add and friends; false for operations oneDNN has no binary for (Pow).
bool BinaryAlgorithm(BinaryOperation operation, dnnl::algorithm& algorithm);
// The layout elementwise ops assume their activations come in: the convolutions' layout
// (Execution::activation_tag) for 4-D tensors with at least 16 channels, else dense; f32
// unless told.
dnnl::memory::desc ActivationLayout(const Execution& execution, const dnnl::memory::dims& dims,
                                    dnnl::memory::data_type type = dnnl::memory::data_type::f32);
// The types convolutions and pooling keep 4-D activations in, best first: the compute type
// (bf16 with fast_math, so consecutive layers pass bf16 tensors), then f32 for an op oneDNN
// has only a reference kernel for in bf16.
std::vector<dnnl::memory::data_type> ActivationTypes(const Execution& execution);
// The channel block of layout `tag` (nChw16c: 16, nChw8c: 8), 0 for other layouts.
dnnl::memory::dim ChannelBlock(dnnl::memory::format_tag tag);
// `dims` with leading 1s up to `rank`.
dnnl::memory::dims Expand(const dnnl::memory::dims& dims, std::size_t rank);
// True when every input is f32 (else a reason naming the first that is not). The op schema
// gives the outputs of every op in the table input 0's type, so they are f32 too. The whole
// support check of Reshape and Flatten.
bool AllFloat32(const backend::ILayerView& layer, std::string& reason);
// The most dimensions a oneDNN memory descriptor has (DNNL_MAX_NDIMS).
inline constexpr std::size_t kMaxOneDnnRank = 12;
// True when `shape` has at most kMaxOneDnnRank dimensions, else false with a reason.
bool FitsOneDnnRank(const TensorShape& shape, std::string& reason);
// The SDK's axis normalization (backplane/backend/op_geometry.hpp), used unqualified.
using backend::NormalizeAxis;

// Attribute with `post_ops` for a primitive whose destination has `dst_dims`; binary operands
// read as `operand_descs[i]` (filled here: dense, broadcast to the destination rank, unless
// `same_shape_desc` is given for operands shaped like the destination).
// Post-op `sum_index` (a binary add of a run-time operand shaped like the destination), when
// not npos, becomes a sum post-op instead: the operand is copied into the destination before
// the primitive runs (PrimitiveWorkload::SetSumInput), which keeps oneDNN on its fastest
// convolution kernels (they take no full-tensor binary operand).
dnnl::primitive_attr PostOpAttr(const Execution& execution, const std::vector<PostOp>& post_ops,
                                const dnnl::memory::dims& dst_dims, const dnnl::memory::desc* same_shape_desc,
                                std::vector<dnnl::memory::desc>& operand_descs,
                                std::size_t sum_index = static_cast<std::size_t>(-1));
class PrimitiveWorkload;
// Registers the binary post-op operands with `workload` (constants packed, runtime inputs by index).
void AddPostOpOperands(PrimitiveWorkload& workload, const std::vector<PostOp>& post_ops,
                       const std::vector<dnnl::memory::desc>& operand_descs,
                       std::size_t sum_index = static_cast<std::size_t>(-1));

// One pair per op, each defined in ops/<op>.cpp.
bool IsConvolution2dSupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateConvolution2d(const OpSpec&, const ExecutionPtr&);
bool IsFullyConnectedSupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateFullyConnected(const OpSpec&, const ExecutionPtr&);
bool IsMatMulSupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateMatMul(const OpSpec&, const ExecutionPtr&);
bool IsPooling2dSupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreatePooling2d(const OpSpec&, const ExecutionPtr&);
bool IsActivationSupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateActivation(const OpSpec&, const ExecutionPtr&);
bool IsElementwiseUnarySupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateElementwiseUnary(const OpSpec&, const ExecutionPtr&);
bool IsElementwiseBinarySupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateElementwiseBinary(const OpSpec&, const ExecutionPtr&);
bool IsReduceSupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateReduce(const OpSpec&, const ExecutionPtr&);
bool IsSoftmaxSupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateSoftmax(const OpSpec&, const ExecutionPtr&);
bool IsBatchNormalizationSupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateBatchNormalization(const OpSpec&, const ExecutionPtr&);
bool IsLayerNormalizationSupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateLayerNormalization(const OpSpec&, const ExecutionPtr&);
bool IsConcatSupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateConcat(const OpSpec&, const ExecutionPtr&);
bool IsTransposeSupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateTranspose(const OpSpec&, const ExecutionPtr&);
// Reshape and Flatten (their support check is AllFloat32).
std::unique_ptr<backend::IWorkload> CreateReshape(const OpSpec&, const ExecutionPtr&);
bool IsSliceSupported(const backend::ILayerView&, std::string&);
std::unique_ptr<backend::IWorkload> CreateSlice(const OpSpec&, const ExecutionPtr&);
// ElementwiseUnary Erf (ops/erf.cpp); ElementwiseUnary dispatches to it.
std::unique_ptr<backend::IWorkload> CreateErf(const OpSpec&, const ExecutionPtr&);

}  // namespace backplane::onednn
