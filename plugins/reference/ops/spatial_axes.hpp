// The N-D window kernels (ConvolutionNd, PoolingNd) run every spatial rank as three axes.
#pragma once

#include <backplane/backend/op_geometry.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <vector>

namespace backplane::reference {

// `axes` (1 to 3) as three, leading axes of extent 1 (one tap, stride 1, no pads, one output)
// added, so a kernel loops over D, H, W whatever the layer's spatial rank.
inline std::array<backend::PoolAxis, 3> AsThreeSpatialAxes(const std::vector<backend::PoolAxis>& axes) {
  std::array<backend::PoolAxis, 3> three{};
  for (auto& axis : three) axis = backend::PoolAxis{1, 1, 1, 1, 0, 0, 1};
  std::copy(axes.begin(), axes.end(), three.end() - static_cast<std::ptrdiff_t>(axes.size()));
  return three;
}

}  // namespace backplane::reference
