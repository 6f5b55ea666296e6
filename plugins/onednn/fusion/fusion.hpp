// Fusion (IBackend::OptimizeSubgraph) - this folder owns which layers CpuOneDnn runs as one
// primitive and how: chains that start at a convolution, fully connected or matmul layer and
// continue with layers oneDNN can apply as post-ops become one PreCompiled layer, and that
// layer's workload. By concern:
//   chain_builder.hpp/.cpp  the chain grammar and its Extend* steps, the roles of the tensors
//                           entering a chain
//   folded_operand.hpp      what folds into an anchor's inputs:
//     strided_view.cpp        data movement (Slice, Reshape, Transpose, scalar scale) as a
//                             strided view of a matmul operand's source
//     channel_gate.cpp        a squeeze-and-excitation Mul into the convolution's weights
//   fuse_subgraph.cpp       FuseSubgraph: the walk over the subgraph that finds the chains
//   fused_descriptor.hpp    the PreCompiled layer's descriptor (anchor, roles, steps)
//   fused_workload.cpp      its workload, and the split at a post-op oneDNN runs slowly
//   layer_match.hpp         the questions about layers and connections the matchers share
// The ops (ops/) build every workload from an OpSpec, so a fused layer is the anchor's op with
// post-ops. GELU, SiLU and HardSwish written out in elementwise layers are recognized once, by
// the runtime (runtime/src/graph/composite_ops.hpp), not here.
//
// The runtime gives the PreCompiled layer every tensor entering the chain as an input and every
// tensor leaving it as an output; CreateFusedWorkload checks both against what the chain needs
// (one output; the expected constants by address and run-time operands by shape) and fails the
// load with a message naming the layers when they differ.
#pragma once

#include "../ops/onednn_ops.hpp"

#include <backplane/backend/optimization.hpp>

#include <memory>

namespace backplane::onednn {

// Finds the chains in `subgraph` (layers CpuOneDnn already accepted). Never throws for a
// layer it does not understand: that layer stays untouched. Not thread-safe with itself on one
// subgraph; the views must outlive the call.
backend::OptimizationViews FuseSubgraph(const backend::SubgraphView& subgraph);

// When the fused primitive `whole` would run oneDNN's reference kernel (a binary post-op of a
// broadcast oneDNN's optimized kernels do not take, as Swin's attention bias on a strided
// matmul): the anchor with the most leading post-ops that keep it off the reference kernel,
// then the rest as a binary primitive rewriting the output in place. `whole` itself when no
// such split exists.
std::unique_ptr<backend::IWorkload> SplitAtSlowPostOp(const OpSpec& spec, const OpKernel& anchor,
                                                      const ExecutionSettingsPtr& execution,
                                                      std::unique_ptr<backend::IWorkload> whole);

// The workload of a PreCompiled layer FuseSubgraph described. Throws backplane::Exception
// (kUnsupported) when the layer is not one, or its tensors do not match the chain.
std::unique_ptr<backend::IWorkload> CreateFusedWorkload(const backend::ILayerView& layer,
                                                        const ExecutionSettingsPtr& execution);

}  // namespace backplane::onednn
