#include "graph/layer_flops.hpp"

#include <algorithm>
#include <cstdint>

namespace backplane::graph {

namespace {

// Product of the dimensions, or 0 for an empty or negative (unknown) one.
double Elements(const TensorShape& shape) {
  double count = 1;
  for (std::int64_t dim : shape.Dims()) {
    if (dim <= 0) return 0;
    count *= static_cast<double>(dim);
  }
  return count;
}

}  // namespace

double LayerFlops(const Layer& layer) {
  if (layer.type == LayerType::kPreCompiled) return layer.fused_flops;
  if (layer.output_infos.size() != 1) return 0;
  const std::vector<TensorInfo>& inputs = layer.input_infos;
  const TensorShape& output = layer.output_infos[0].shape;
  const double outputs = Elements(output);
  switch (layer.type) {
    case LayerType::kConvolution2d:
    case LayerType::kConvolutionNd:
    case LayerType::kConvolutionInteger:  // integer operations, counted as FLOPs are
      if (inputs.size() >= 2 && inputs[1].shape.Rank() >= 3 && inputs[1].shape[0] > 0) {
        const TensorShape& weights = inputs[1].shape;  // [M, C/groups, k...]
        return 2 * outputs * Elements(weights) / static_cast<double>(weights[0]);
      }
      return 0;
    case LayerType::kMatMul:
    case LayerType::kMatMulInteger:  // inputs 2 and 3 are zero points
      if (inputs.size() >= 2 && inputs[0].shape.Rank() >= 1) {
        const TensorShape& a = inputs[0].shape;  // [..., M, K] or [K]
        return 2 * outputs * static_cast<double>(std::max<std::int64_t>(a[a.Rank() - 1], 0));
      }
      return 0;
    case LayerType::kFullyConnected:
      if (inputs.size() >= 2 && output.Rank() == 2 && output[1] > 0) {
        // B is [K, N] or, transposed, [N, K]: K = elements of B / N.
        return 2 * outputs * Elements(inputs[1].shape) / static_cast<double>(output[1]);
      }
      return 0;
    default:
      return 0;
  }
}

}  // namespace backplane::graph
