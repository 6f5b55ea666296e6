// The N-D window kernels (ConvolutionNd, PoolingNd) run every spatial rank as three axes.
#pragma once

#include <backplane/backend/op_geometry.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
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

// Calls visit(input, tap) for each tap of output position (od, oh, ow)'s window (on `axes`, D,
// H, W) that lies in the input: `input` is the element's offset in one D*H*W channel, `tap` the
// tap's offset in a kD*kH*kW kernel. Taps in the padding are skipped.
template <typename Visit>
void ForEachTapInInput(const std::array<backend::PoolAxis, 3>& axes, std::int64_t od, std::int64_t oh,
                       std::int64_t ow, Visit&& visit) {
  const backend::PoolAxis &d = axes[0], &h = axes[1], &w = axes[2];
  for (std::int64_t kd = 0; kd < d.kernel; ++kd) {
    const std::int64_t id = d.Start(od) + kd * d.dilation;
    if (!d.InInput(id)) continue;
    for (std::int64_t kh = 0; kh < h.kernel; ++kh) {
      const std::int64_t ih = h.Start(oh) + kh * h.dilation;
      if (!h.InInput(ih)) continue;
      for (std::int64_t kw = 0; kw < w.kernel; ++kw) {
        const std::int64_t iw = w.Start(ow) + kw * w.dilation;
        if (!w.InInput(iw)) continue;
        visit((id * h.size + ih) * w.size + iw, (kd * h.kernel + kh) * w.kernel + kw);
      }
    }
  }
}

// Calls visit(x_offset, filter_offset, m, od, oh, ow) for each output element of an N-D
// convolution (ConvolutionNd, ConvolutionInteger), in the output's order ([N, M, D, H, W]):
// x_offset is the element offset of the first input channel of output channel m's group in its
// image, filter_offset that of m's first weight (channels C/groups, each a kD*kH*kW kernel).
template <typename Visit>
void ForEachConvolutionOutput(const backend::ConvNdGeometry& g, const std::array<backend::PoolAxis, 3>& axes,
                              Visit&& visit) {
  const std::int64_t in_spatial = axes[0].size * axes[1].size * axes[2].size;
  const std::int64_t kernel_spatial = axes[0].kernel * axes[1].kernel * axes[2].kernel;
  for (std::int64_t n = 0; n < g.batch; ++n) {
    for (std::int64_t m = 0; m < g.out_channels; ++m) {
      const std::int64_t first_c = (m / g.GroupOutChannels()) * g.GroupChannels();
      const std::int64_t x_offset = (n * g.channels + first_c) * in_spatial;
      const std::int64_t filter_offset = m * g.GroupChannels() * kernel_spatial;
      for (std::int64_t od = 0; od < axes[0].out; ++od) {
        for (std::int64_t oh = 0; oh < axes[1].out; ++oh) {
          for (std::int64_t ow = 0; ow < axes[2].out; ++ow) visit(x_offset, filter_offset, m, od, oh, ow);
        }
      }
    }
  }
}

}  // namespace backplane::reference
