// LayerFlops: the FLOP rule of each op, on layers built by hand (shapes as Graph::Resolve
// leaves them).
#include "graph/layer_flops.hpp"

#include <doctest/doctest.h>

#include <utility>
#include <vector>

namespace backplane::graph {
namespace {

Layer Make(LayerType type, std::vector<TensorShape> inputs, std::vector<TensorShape> outputs) {
  Layer layer;
  layer.type = type;
  for (TensorShape& shape : inputs) layer.input_infos.push_back({std::move(shape), DataType::kFloat32});
  for (TensorShape& shape : outputs) layer.output_infos.push_back({std::move(shape), DataType::kFloat32});
  layer.num_outputs = static_cast<std::uint32_t>(layer.output_infos.size());
  return layer;
}

TEST_CASE("FLOPs follow from the shapes of convolutions, MatMuls and fully connected layers") {
  // Convolution: 2 * output elements (1*4*6*6) * weights per output channel (3*3*3).
  CHECK(LayerFlops(Make(LayerType::kConvolution2d, {{1, 3, 8, 8}, {4, 3, 3, 3}, {4}}, {{1, 4, 6, 6}})) ==
        2.0 * 144 * 27);
  // Grouped (depthwise) convolution: weights [M, C/groups, kH, kW].
  CHECK(LayerFlops(Make(LayerType::kConvolution2d, {{1, 8, 5, 5}, {8, 1, 3, 3}}, {{1, 8, 3, 3}})) == 2.0 * 72 * 9);
  // MatMul [2,5,7] x [7,3]: 2 * 30 outputs * K 7; a rank-1 A is [K].
  CHECK(LayerFlops(Make(LayerType::kMatMul, {{2, 5, 7}, {7, 3}}, {{2, 5, 3}})) == 2.0 * 30 * 7);
  CHECK(LayerFlops(Make(LayerType::kMatMul, {{7}, {7, 3}}, {{3}})) == 2.0 * 3 * 7);
  // The integer ops count their multiply-adds the same way, whatever their zero points.
  CHECK(LayerFlops(Make(LayerType::kConvolutionInteger, {{1, 3, 8, 8}, {4, 3, 3, 3}, {}, {4}}, {{1, 4, 6, 6}})) ==
        2.0 * 144 * 27);
  CHECK(LayerFlops(Make(LayerType::kMatMulInteger, {{2, 5, 7}, {7, 3}, {}, {3}}, {{2, 5, 3}})) == 2.0 * 30 * 7);
  // FullyConnected with B transposed, [N, K] = [10, 64]: 2 * (2*10) * 64.
  CHECK(LayerFlops(Make(LayerType::kFullyConnected, {{2, 64}, {10, 64}, {10}}, {{2, 10}})) == 2.0 * 20 * 64);
  CHECK(LayerFlops(Make(LayerType::kActivation, {{1, 4}}, {{1, 4}})) == 0);
}

TEST_CASE("FLOPs are 0 when the shapes do not say") {
  // An unknown (negative) or empty dimension, a missing weight, two outputs.
  CHECK(LayerFlops(Make(LayerType::kConvolution2d, {{1, 3, 8, 8}, {4, 3, 3, 3}}, {{-1, 4, 6, 6}})) == 0);
  CHECK(LayerFlops(Make(LayerType::kConvolution2d, {{1, 3, 8, 8}, {0, 3, 3, 3}}, {{1, 0, 6, 6}})) == 0);
  CHECK(LayerFlops(Make(LayerType::kConvolution2d, {{1, 3, 8, 8}}, {{1, 4, 6, 6}})) == 0);
  CHECK(LayerFlops(Make(LayerType::kMatMul, {{2, 5, 7}, {7, 3}}, {{2, 5, 3}, {2, 5, 3}})) == 0);
  CHECK(LayerFlops(Make(LayerType::kFullyConnected, {{2, 64}, {10, 64}}, {{2, 0}})) == 0);
}

TEST_CASE("a fused layer's FLOPs are what the optimizer summed over the layers it replaced") {
  Layer fused = Make(LayerType::kPreCompiled, {{1, 3, 8, 8}, {4, 3, 3, 3}}, {{1, 4, 6, 6}});
  CHECK(LayerFlops(fused) == 0);
  fused.fused_flops = 1234;
  CHECK(LayerFlops(fused) == 1234);
}

}  // namespace
}  // namespace backplane::graph
