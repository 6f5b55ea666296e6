// Recognizing composite ops before placement: the decomposed forms exporters write for ops that
// op set v1 has as one layer become that layer, so every backend sees one LayerNormalization or
// one GELU instead of seven or five elementwise layers (and no boundary copies between them
// when a backend runs only some of the parts). Recognized, all f32:
//   LayerNormalization  ReduceMean(x) -> Sub(x, mean) = d -> Pow(d, 2) -> ReduceMean -> Add(eps)
//                       -> Sqrt -> Div(d, .), then optionally Mul(scale) and Add(bias) by
//                       constants of the normalized shape; the reduced axes are the last ones
//                       (ONNX opset < 17 and PyTorch's F.layer_norm at any opset)
//   Activation kGelu    Div(x, sqrt 2) or Mul(x, 1/sqrt 2) -> Erf -> Add(1) -> with x and 0.5
//                       multiplied in any of the three orders exporters use
//   Activation kGeluTanh  Pow(x, 3) or Mul(x, Mul(x, x)) -> Mul(0.044715) -> Add(x, .)
//                       -> Mul(sqrt(2/pi)) -> Tanh -> Add(1) -> x and 0.5 multiplied in as for
//                       kGelu (PyTorch's gelu(approximate='tanh'), GPT-2's NewGELU)
//   Activation kSilu    Mul(x, Sigmoid(x))
//   Activation kHardSwish  Mul(x, HardSigmoid(x)) with alpha 1/6 and beta 1/2
//   Convolution2d, Pooling2d  Pad (zeros along H and W) -> the convolution, or -> an average
//                       pooling that counts padding (or has none, without ceil mode): the
//                       pads become the layer's (PyTorch exports avg_pool2d(padding=1) so)
// The operands of Add and Mul may come in either order. A pattern is replaced only when every
// tensor inside it is read inside it alone, none of its layers is pinned, and some backend
// placement may choose for the new layer accepts it; otherwise it stays as it is and runs as
// before. The new layer takes the name of the pattern's last layer, so outputs, profiles and
// placement reports keep naming what the user's model named.
// This pass is the one owner of these patterns: backends see the one layer and fuse it as any
// other (CpuOneDnn's chains take the GELU, SiLU and HardSwish activations as post-ops), and a
// pattern this pass keeps (a layer of it pinned) runs as the layers the user wrote.
#pragma once

#include "graph/graph.hpp"

#include <functional>
#include <string>
#include <vector>

namespace backplane::graph {

// What the optimizer tells the pass about placement. Both are called on resolved layers.
struct CompositeOpRules {
  std::function<bool(const Layer&)> placeable;  // some backend that may run it accepts the layer
  std::function<bool(const Layer&)> pinned;     // the user pinned this layer: keep it as it is
};

// Replaces every recognized pattern (above) in `graph`; appends one line per replacement to
// `log`. The graph must be resolved; it is left resolved. Thread safety: as Graph.
void RecognizeCompositeOps(Graph& graph, const CompositeOpRules& rules, std::vector<std::string>& log);

}  // namespace backplane::graph
