// The arithmetic of a layer, for profiles (ProfiledStepDetail::flops): the one owner of the rule.
#pragma once

#include "graph/graph.hpp"

namespace backplane::graph {

// Floating-point operations of one run of `layer` (a multiply-add counts 2), from its resolved
// shapes: Convolution2d (2 * output elements * weight elements per output channel), MatMul and
// FullyConnected (2 * output elements * K); a PreCompiled layer, what the optimizer summed over
// the layers it replaced (Layer::fused_flops). 0 for other ops and for shapes that do not say
// (an unknown or empty dimension). Pure function.
double LayerFlops(const Layer& layer);

}  // namespace backplane::graph
