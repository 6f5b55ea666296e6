// Fusion (IBackend::OptimizeSubgraph): a convolution, fully connected or matmul layer (the
// anchor), then a residual Add of a same-shaped run-time tensor, then an activation (each
// optional, at least one) become one PreCompiled layer whose workload is the anchor's with the
// rest in its epilogue kernel (ops/epilogue.hpp): one kernel instead of two or three, one
// tensor fewer to write and read.
//
// A chain is consecutive layers of the SubgraphView (topological order), each reading output 0
// of the one before (ILayerView::GetInputProducer) where that output is read by it alone
// (GetOutputConsumerCount), so no tensor inside the chain is seen outside it and the residual
// cannot be computed from the chain (no cycle). The anchor's inputs must be distinct tensors
// (the runtime passes each tensor once); the residual may be one of them. Layers whose views
// cannot say their producers are left alone.
//
// The PreCompiled layer's inputs are the anchor's, in order, then the residual when it is not
// one of them; CreateFusedWorkload checks that and fails the load naming the layers otherwise.
#pragma once

#include "opencl_device.hpp"

#include <backplane/backend/optimization.hpp>
#include <backplane/backend/workload.hpp>

#include <memory>

namespace backplane::opencl {

// Finds the chains in `subgraph` (layers GpuOpenCl accepted). Never throws for a layer it
// does not understand: that layer stays untouched.
backend::OptimizationViews FuseSubgraph(const backend::SubgraphView& subgraph);

// The workload of a PreCompiled layer FuseSubgraph described. Throws backplane::Exception
// (kUnsupported) when the layer is not one of them or its tensors do not match the chain.
std::unique_ptr<backend::IWorkload> CreateFusedWorkload(const backend::ILayerView& layer, OpenClDevice& device);

}  // namespace backplane::opencl
