// Graph passes run before placement: constant folding and batch-norm folding (composite ops:
// composite_ops.hpp), and the small graph edits they share. Dead-layer removal is
// Graph::RemoveDeadLayers.
#pragma once

#include "graph/optimizer.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace backplane::graph {

// Replaces every layer whose inputs are all constants by constants holding its outputs,
// computed by the first available backend that works on host memory and supports the layer
// (layers none supports are left alone). Appends what it did to `log`. The graph must be
// resolvable; it is left resolved.
void FoldConstants(Graph& graph, std::vector<PlacementBackend>& backends, std::vector<std::string>& log);

// Folds an f32 BatchNormalization with constant parameters into the Convolution2d (constant
// weights and bias) that feeds only it: W' = W * s, b' = (b - mean) * s + beta with
// s = scale / sqrt(var + eps). Leaves the graph resolved.
void FoldBatchNormalization(Graph& graph, std::vector<std::string>& log);

// Moves an elementwise binary op with a constant operand (ConvNeXt's layer scale: gamma of
// [C, 1, 1] times the NCHW transpose of an NHWC tensor) above the Transpose it reads, when
// nothing else reads the Transpose: Op(Transpose(x), c) = Transpose(Op(x, c')), c' the constant
// with its axes permuted back. The op then follows x's producer (a matmul and its bias), where
// backends fuse it. Exact: the same elements meet. Skips layers `pinned` says the user pinned.
// Appends one line per move to `log`; leaves the graph resolved.
void HoistConstantOpsAboveTransposes(Graph& graph, const std::function<bool(const Layer&)>& pinned,
                                     std::vector<std::string>& log);

// The Constant layer's descriptor behind `input`, or null when it is not a live Constant.
const ConstantDescriptor* ConstantOf(const Graph& graph, const std::optional<OutputSlot>& input);

// A new Constant layer named `name` (made unique with trailing ') holding `bytes` of `info`.
LayerId AddConstant(Graph& graph, std::string name, const TensorInfo& info, std::vector<std::uint8_t> bytes);

// Makes every input in `consumers` read `to` instead.
void Rewire(Graph& graph, const std::vector<InputSlot>& consumers, OutputSlot to);

// Runs `layer` (resolved; its inputs all constants) on `backend` over host memory and returns
// each output's bytes. Throws Exception naming the layer and backend on failure.
std::vector<std::vector<std::uint8_t>> RunOnHost(PlacementBackend& backend, const Layer& layer);

}  // namespace backplane::graph
