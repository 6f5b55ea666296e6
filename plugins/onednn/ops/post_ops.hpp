// Post-ops: the elementwise steps of activations and unary ops, which of them keep zero, the
// binary algorithms, and the primitive attribute and operands that carry a spec's post-ops
// (a fused chain's, fusion/) into a primitive. The one owner of how a step becomes oneDNN's.
// Pure functions but AddPostOpOperands (which fills the workload it is given); thread-safe.
#pragma once

#include "op_spec.hpp"

#include <oneapi/dnnl/dnnl.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace backplane::onednn {

class PrimitiveWorkload;

// The eltwise steps of an activation; false with a reason when oneDNN has none.
bool ActivationSteps(const ActivationDescriptor& descriptor, std::vector<EltwiseStep>& steps, std::string& reason);
bool UnarySteps(UnaryOperation operation, std::vector<EltwiseStep>& steps, std::string& reason);
// Whether `step` maps 0 to 0 (ReLU, clip around 0, SiLU, GELU, ...; not sigmoid).
bool KeepsZero(const EltwiseStep& step);
// binary_add and friends; false for operations oneDNN has no binary for (Pow).
bool BinaryAlgorithm(BinaryOperation operation, dnnl::algorithm& algorithm);

// No post-op (a sum_index that makes none a sum).
inline constexpr std::size_t kNoResidual = static_cast<std::size_t>(-1);
// The first residual add of `post_ops` (a run-time operand shaped like the destination, which a
// convolution can take as a sum post-op), or kNoResidual.
std::size_t ResidualPostOp(const std::vector<PostOp>& post_ops, const dnnl::memory::dims& dst_dims);
// Whether a post-op other than the sum at `sum_index` reads a run-time tensor shaped like the
// destination (the operand is then read in the destination's layout).
bool HasSameShapeOperand(const std::vector<PostOp>& post_ops, const dnnl::memory::dims& dst_dims,
                         std::size_t sum_index);

// Attribute with `post_ops` for a primitive whose destination has `dst_dims`; binary operands
// read as `operand_descs[i]` (filled here: dense, broadcast to the destination rank, unless
// `same_shape_desc` is given for operands shaped like the destination).
// Post-op `sum_index` (a binary add of a run-time operand shaped like the destination), when
// not npos, becomes a sum post-op instead: the operand is copied into the destination before
// the primitive runs (PrimitiveWorkload::SetSumInput), which keeps oneDNN on its fastest
// convolution kernels (they take no full-tensor binary operand).
dnnl::primitive_attr PostOpAttr(const ExecutionSettings& execution, const std::vector<PostOp>& post_ops,
                                const dnnl::memory::dims& dst_dims, const dnnl::memory::desc* same_shape_desc,
                                std::vector<dnnl::memory::desc>& operand_descs,
                                std::size_t sum_index = static_cast<std::size_t>(-1));
// Registers the binary post-op operands with `workload` (constants packed, runtime inputs by index).
void AddPostOpOperands(PrimitiveWorkload& workload, const std::vector<PostOp>& post_ops,
                       const std::vector<dnnl::memory::desc>& operand_descs,
                       std::size_t sum_index = static_cast<std::size_t>(-1));

}  // namespace backplane::onednn
