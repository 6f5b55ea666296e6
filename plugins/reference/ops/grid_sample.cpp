// GridSample (op set v2, ONNX GridSample opset 16) on f32 and f64: y[n, c, i, j] samples
// x[n, c] at the point grid[n, i, j] = (gx, gy) in [-1, 1] (gx along W), the arithmetic of ONNX's
// reference implementation (onnx/reference/ops/op_grid_sample.py, itself PyTorch's):
//   - the point is denormalized per axis: (g + 1) / 2 * (d - 1) with align_corners, else
//     ((g + 1) * d - 1) / 2; nearest then rounds it, halves to even;
//   - a point outside [lo, hi] (0 and d - 1 with align_corners, else -0.5 and d - 0.5) is clamped
//     to [0, d - 1] (border) or reflected at lo and hi until inside (reflection);
//   - each tap (1 for nearest, 2 per axis for bilinear, 4 for bicubic: Keys' cubic with
//     A = -0.75) outside the image reads 0 (zeros), the nearest pixel (border) or its reflection.
// The weights are computed once per output point and reused for every channel. A NaN coordinate
// gives NaN for the point's every channel. Bicubic with border padding follows the reference, which
// clamps the point before taking its 4x4 neighbourhood (PyTorch clamps each tap instead).
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

namespace backplane::reference {

namespace {

// The taps of one axis: up to 4 pixel indices (-1: a zero of the zeros padding) and weights.
template <typename T>
struct AxisTaps {
  std::array<std::int64_t, 4> index{};
  std::array<T, 4> weight{};
  int count = 0;
};

// One spatial axis of x: its length and the sampling rules.
template <typename T>
class SampleAxis {
 public:
  SampleAxis(std::int64_t length, const GridSampleDescriptor& d)
      : length_(length), padding_(d.padding_mode), align_corners_(d.align_corners) {
    lo_ = align_corners_ ? 0.0 : -0.5;
    hi_ = align_corners_ ? static_cast<double>(length_) - 1.0 : static_cast<double>(length_) - 0.5;
  }

  // The taps of normalized coordinate `g` (not NaN) under `mode`.
  AxisTaps<T> Taps(T g, GridSampleMode mode) const {
    T x = Denormalize(g);
    if (mode == GridSampleMode::kNearest) x = std::nearbyint(x);  // the default rounding: halves to even
    x = PadCoordinate(x);
    AxisTaps<T> taps;
    if (mode == GridSampleMode::kNearest) {
      // The reference truncates the (padded) coordinate to an integer.
      taps.index[0] = PixelIndex(static_cast<std::int64_t>(x));
      taps.weight[0] = T{1};
      taps.count = 1;
      return taps;
    }
    const T floor = std::floor(x);
    const T t = x - floor;
    const auto x0 = static_cast<std::int64_t>(floor);
    if (mode == GridSampleMode::kBilinear) {
      taps.index = {PixelIndex(x0), PixelIndex(x0 + 1), 0, 0};
      taps.weight = {T{1} - t, t, T{0}, T{0}};
      taps.count = 2;
      return taps;
    }
    constexpr T a = T(-0.75);  // Keys' cubic convolution, the distances 1 + t, t, 1 - t, 2 - t
    const T d0 = t + 1, d1 = t, d2 = 1 - t, d3 = 2 - t;
    taps.index = {PixelIndex(x0 - 1), PixelIndex(x0), PixelIndex(x0 + 1), PixelIndex(x0 + 2)};
    taps.weight = {((a * d0 - 5 * a) * d0 + 8 * a) * d0 - 4 * a, ((a + 2) * d1 - (a + 3)) * d1 * d1 + 1,
                   ((a + 2) * d2 - (a + 3)) * d2 * d2 + 1, ((a * d3 - 5 * a) * d3 + 8 * a) * d3 - 4 * a};
    taps.count = 4;
    return taps;
  }

 private:
  // Computed in double and rounded to T once, as the reference stores it in the grid's type.
  T Denormalize(T g) const {
    if (align_corners_ && length_ == 1) return T{0};  // the one pixel's centre (an infinite g times 0 is NaN)
    const double n = static_cast<double>(g);
    const double d = static_cast<double>(length_);
    return static_cast<T>(align_corners_ ? (n + 1) / 2.0 * (d - 1) : ((n + 1) * d - 1) / 2.0);
  }

  // Reflects `x` at lo_ and hi_ until it lies between them (the reference's _gs_reflect).
  double Reflect(double x) const {
    const double range = hi_ - lo_;
    if (!(range > 0)) return lo_;  // one pixel with align_corners: every point is its centre
    if (x >= lo_ && x <= hi_) return x;
    const double beyond = x < lo_ ? lo_ - x : x - hi_;
    const double flips = std::floor(beyond / range);
    const double rest = beyond - flips * range;
    const bool even = std::fmod(flips, 2.0) == 0;
    return (x < lo_) == even ? lo_ + rest : hi_ - rest;
  }

  // A coordinate outside [lo_, hi_] moved in by the padding mode; with zeros padding only kept
  // finite and within 4 pixels of the image (every tap of a point beyond that reads 0 anyway).
  T PadCoordinate(T x) const {
    if (x >= lo_ && x <= hi_) return x;
    const double d = static_cast<double>(length_);
    switch (padding_) {
      case GridSamplePadding::kBorder: return static_cast<T>(std::clamp(static_cast<double>(x), 0.0, d - 1));
      case GridSamplePadding::kReflection: return static_cast<T>(Reflect(static_cast<double>(x)));
      case GridSamplePadding::kZeros: break;
    }
    return static_cast<T>(std::clamp(static_cast<double>(x), -4.0, d + 4.0));
  }

  // The pixel tap `i` reads: -1 for a zero.
  std::int64_t PixelIndex(std::int64_t i) const {
    if (i >= 0 && i < length_) return i;
    switch (padding_) {
      case GridSamplePadding::kZeros: return -1;
      case GridSamplePadding::kBorder: return std::clamp<std::int64_t>(i, 0, length_ - 1);
      case GridSamplePadding::kReflection: break;
    }
    const auto reflected = static_cast<std::int64_t>(Reflect(static_cast<double>(i)));  // truncated, as the reference
    return std::clamp<std::int64_t>(reflected, 0, length_ - 1);
  }

  std::int64_t length_;
  GridSamplePadding padding_;
  bool align_corners_;
  double lo_ = 0, hi_ = 0;
};

template <typename T>
class GridSampleWorkload final : public backend::IWorkload {
 public:
  GridSampleWorkload(const GridSampleDescriptor& d, const TensorShape& x, const TensorShape& grid)
      : mode_(d.mode), n_(x.Dims()[0]), c_(x.Dims()[1]), h_(x.Dims()[2]), w_(x.Dims()[3]),
        points_(grid.Dims()[1] * grid.Dims()[2]), rows_(h_, d), columns_(w_, d) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const T* x = Input<T>(args, 0);
    const T* grid = Input<T>(args, 1);
    T* y = Output<T>(args, 0);
    for (std::int64_t n = 0; n < n_; ++n) {
      for (std::int64_t p = 0; p < points_; ++p) {
        const T* g = grid + (n * points_ + p) * 2;
        T* out = y + n * c_ * points_ + p;
        if (std::isnan(g[0]) || std::isnan(g[1])) {
          for (std::int64_t c = 0; c < c_; ++c) out[c * points_] = std::numeric_limits<T>::quiet_NaN();
          continue;
        }
        const AxisTaps<T> across = columns_.Taps(g[0], mode_);
        const AxisTaps<T> down = rows_.Taps(g[1], mode_);
        for (std::int64_t c = 0; c < c_; ++c) {
          out[c * points_] = Sample(x + (n * c_ + c) * h_ * w_, down, across);
        }
      }
    }
  }

 private:
  // Interpolates along W in each tapped row, then along H (the reference's order).
  T Sample(const T* image, const AxisTaps<T>& down, const AxisTaps<T>& across) const {
    T sum = 0;
    for (int i = 0; i < down.count; ++i) {
      if (down.index[i] < 0) continue;
      const T* row = image + down.index[i] * w_;
      T along = 0;
      for (int j = 0; j < across.count; ++j) {
        if (across.index[j] >= 0) along += across.weight[j] * row[across.index[j]];
      }
      sum += down.weight[i] * along;
    }
    return sum;
  }

  GridSampleMode mode_;
  std::int64_t n_, c_, h_, w_, points_;
  SampleAxis<T> rows_, columns_;
};

}  // namespace

bool IsGridSampleSupported(const backend::ILayerView& layer, std::string& reason) {
  const DataType type = layer.GetInputInfo(0).type;
  if (type == DataType::kFloat32 || type == DataType::kFloat64) return true;
  reason = std::string("CpuRef samples f32 and f64 tensors, not ") + ToString(type);
  return false;
}

std::unique_ptr<backend::IWorkload> CreateGridSampleWorkload(const backend::ILayerView& layer) {
  const auto& d = DescriptorOf<GridSampleDescriptor>(layer);
  const TensorShape& x = layer.GetInputInfo(0).shape;
  const TensorShape& grid = layer.GetInputInfo(1).shape;
  switch (layer.GetInputInfo(0).type) {
    case DataType::kFloat32: return std::make_unique<GridSampleWorkload<float>>(d, x, grid);
    case DataType::kFloat64: return std::make_unique<GridSampleWorkload<double>>(d, x, grid);
    default: break;
  }
  throw Exception(ErrorCode::kUnsupported, std::string("CpuRef samples f32 and f64 tensors, not ") +
                                               ToString(layer.GetInputInfo(0).type));
}

}  // namespace backplane::reference
