// Resize's arithmetic (op set v2): which input positions each output position of one axis reads
// and with what weights, as ONNX's reference defines it (onnx/backend/test/case/node/resize.py:
// a coordinate transformation, then the n nearest neighbours of the input coordinate, smaller
// ones first on ties, in the input padded with its edge values). The one owner of these
// formulas: a backend's Resize kernel applies the taps; the op schema checks the attributes.
// Header-only, part of the author kit. Pure functions: thread-safe, never throw.
#pragma once

#include <backplane/descriptors.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

namespace backplane::backend {

// Output position x of one axis: `extrapolate` (tf_crop_and_resize outside the input: the
// output is the descriptor's extrapolation_value), or sum of weights[j] * input[index[j]] for
// j < count, every index within [0, input length).
struct ResampleTaps {
  bool extrapolate = false;
  int count = 0;
  std::array<std::int64_t, 4> index{};
  std::array<double, 4> weight{};
};

namespace resampling_detail {

// The input coordinate of output position x; false when tf_crop_and_resize falls outside.
inline bool SourceCoordinate(const ResizeDescriptor& d, std::size_t axis, std::int64_t input_length, std::int64_t x,
                             double& source) {
  const double in = static_cast<double>(input_length);
  const double scale = d.scales[axis];
  const double out = scale * in;  // the reference's output width: a float, not sizes[axis]
  const double position = static_cast<double>(x);
  switch (d.coordinate_transformation) {
    case ResizeCoordinates::kHalfPixel: source = (position + 0.5) / scale - 0.5; return true;
    case ResizeCoordinates::kAsymmetric: source = position / scale; return true;
    case ResizeCoordinates::kPytorchHalfPixel: source = out == 1 ? -0.5 : (position + 0.5) / scale - 0.5; return true;
    case ResizeCoordinates::kAlignCorners: source = out == 1 ? 0.0 : position * (in - 1) / (out - 1); return true;
    case ResizeCoordinates::kTfHalfPixelForNn: source = (position + 0.5) / scale; return true;
    case ResizeCoordinates::kTfCropAndResize: {
      const double start = d.roi[axis];
      const double end = d.roi[axis + d.scales.size()];
      source = out == 1 ? (end - start) * (in - 1) / 2 : position * (end - start) * (in - 1) / (out - 1);
      source += start * (in - 1);
      return source >= 0 && source <= in - 1;
    }
  }
  return false;
}

// The weights of the n = 2 (nearest, linear) or 4 (cubic) neighbours for the distance `ratio`
// in (0, 1] of the coordinate past the first two's left one.
inline int Coefficients(const ResizeDescriptor& d, double ratio, std::array<double, 4>& c) {
  if (d.mode == ResizeMode::kCubic) {
    const double a = d.cubic_coeff_a;
    const double r = ratio, s = 1 - ratio;
    c[0] = ((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a;
    c[1] = ((a + 2) * r - (a + 3)) * r * r + 1;
    c[2] = ((a + 2) * s - (a + 3)) * s * s + 1;
    c[3] = ((a * (s + 1) - 5 * a) * (s + 1) + 8 * a) * (s + 1) - 4 * a;
    return 4;
  }
  if (d.mode == ResizeMode::kLinear) {
    c[0] = 1 - ratio;
    c[1] = ratio;
    return 2;
  }
  bool right = true;  // an integer coordinate (ratio 1) is the right neighbour
  if (ratio < 1) {
    switch (d.nearest_mode) {
      case ResizeNearest::kRoundPreferFloor: right = ratio > 0.5; break;
      case ResizeNearest::kRoundPreferCeil: right = ratio >= 0.5; break;
      case ResizeNearest::kFloor: right = false; break;
      case ResizeNearest::kCeil: right = true; break;
    }
  }
  c[0] = right ? 0 : 1;
  c[1] = right ? 1 : 0;
  return 2;
}

}  // namespace resampling_detail

// The taps of output position `x` along `axis` (of input length `input_length` >= 1) under `d`,
// whose scales and roi the op schema has checked.
inline ResampleTaps Taps(const ResizeDescriptor& d, std::size_t axis, std::int64_t input_length, std::int64_t x) {
  ResampleTaps taps;
  double source = 0;
  if (!resampling_detail::SourceCoordinate(d, axis, input_length, x, source)) {
    taps.extrapolate = true;
    return taps;
  }
  const double floor = std::floor(source);
  const double ratio = source == floor ? 1.0 : source - floor;
  taps.count = resampling_detail::Coefficients(d, ratio, taps.weight);
  const int n = taps.count;
  // The n neighbours: from floor - (n/2 - 1) (one further left for an integer coordinate, whose
  // ratio is 1), kept inside the input padded by ceil(n/2) edge values on each side.
  const auto pad = static_cast<std::int64_t>((n + 1) / 2);
  const double wanted = floor - (ratio == 1.0 ? 1 : 0) - (n / 2 - 1);
  const double lowest = static_cast<double>(-pad);
  const double highest = static_cast<double>(input_length + pad - n);
  const auto first = static_cast<std::int64_t>(std::min(std::max(wanted, lowest), highest));
  double sum = 0;
  for (int j = 0; j < n; ++j) {
    const std::int64_t i = first + j;
    if (d.exclude_outside && (i < 0 || i >= input_length)) taps.weight[j] = 0;
    sum += taps.weight[j];
    taps.index[j] = std::min(std::max<std::int64_t>(i, 0), input_length - 1);
  }
  if (d.exclude_outside) {
    for (int j = 0; j < n; ++j) taps.weight[j] /= sum;
  }
  return taps;
}

}  // namespace backplane::backend
