// Convolution2d, f32, NCHW: x [N, C, H, W], weights [M, C/groups, kH, kW], optional bias [M].
//
// Per image and group, the convolution is one GEMM: weights [M/groups, C/groups*kH*kW] times
// the im2col matrix [C/groups*kH*kW, Ho*Wo]. im2col writes straight into the GEMM's packed B
// layout in the per-run scratch; a 1x1, stride 1, unpadded convolution uses x itself as B.
// Constant weights are packed once, when the workload is created. Depthwise convolutions (one
// input channel per group) use a direct loop instead: their GEMMs would be one row high.
#include "gemm.hpp"
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/backend/op_geometry.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <algorithm>
#include <cstring>
#include <vector>

namespace backplane::reference {

namespace {

std::int64_t RoundUp(std::int64_t value, std::int64_t multiple) { return (value + multiple - 1) / multiple * multiple; }

using backend::ConvGeometry;

// Output positions [begin, end) along one axis whose input index, position * stride + offset,
// falls inside [0, size).
struct ValidRange {
  std::int64_t begin, end;
};

ValidRange ValidOutputRange(std::int64_t offset, std::int64_t stride, std::int64_t size, std::int64_t out_size) {
  // Smallest o with o * stride + offset >= 0, and one past the largest with it < size.
  const std::int64_t begin = offset >= 0 ? 0 : (-offset + stride - 1) / stride;
  const std::int64_t end = size - 1 - offset < 0 ? 0 : (size - 1 - offset) / stride + 1;
  return {std::min(begin, out_size), std::clamp(end, std::min(begin, out_size), out_size)};
}

class Convolution2dWorkload final : public backend::IWorkload {
 public:
  Convolution2dWorkload(const ConvGeometry& geometry, const float* constant_weights, bool has_bias,
                        const float* constant_bias)
      : g_(geometry), has_bias_(has_bias) {
    depthwise_ = g_.GroupChannels() == 1 && g_.groups > 1;
    pointwise_ = g_.kernel_h == 1 && g_.kernel_w == 1 && g_.stride_h == 1 && g_.stride_w == 1 &&
                 g_.out_height == g_.height && g_.out_width == g_.width && g_.pad_top == 0 && g_.pad_left == 0;
    for (std::int64_t kw = 0; kw < g_.kernel_w; ++kw) {
      column_ranges_.push_back(
          ValidOutputRange(kw * g_.dilation_w - g_.pad_left, g_.stride_w, g_.width, g_.out_width));
    }
    if (constant_bias) {
      bias_constant_ = true;
      bias_.assign(constant_bias, constant_bias + g_.out_channels);
    }
    if (constant_weights) {
      weights_constant_ = true;
      if (depthwise_) {
        weights_.assign(constant_weights, constant_weights + g_.out_channels * g_.kernel_h * g_.kernel_w);
      } else {
        group_packed_size_ = static_cast<std::int64_t>(PackedASize(g_.GroupOutChannels(), g_.GroupDepth()));
        weights_.resize(static_cast<std::size_t>(group_packed_size_ * g_.groups));
        for (std::int64_t group = 0; group < g_.groups; ++group) {
          PackA(GemmOperand::RowMajor(GroupWeights(constant_weights, group), g_.GroupDepth()), g_.GroupOutChannels(),
                g_.GroupDepth(), weights_.data() + group * group_packed_size_);
        }
      }
    }
    if (!depthwise_) {
      const std::int64_t spatial = g_.OutSpatial();
      columns_floats_ = pointwise_ ? 0 : RoundUp(static_cast<std::int64_t>(PackedBSize(g_.GroupDepth(), spatial)), 16);
      row_floats_ = pointwise_ ? 0 : RoundUp(spatial, kGemmNr);
      gemm_floats_ = static_cast<std::int64_t>(GemmWorkspaceSize(
          g_.GroupOutChannels(), spatial, g_.GroupDepth(), WeightsOperand(nullptr, 0), ColumnsOperand(nullptr, nullptr)));
    }
  }

  std::size_t GetScratchSize() const override {
    return static_cast<std::size_t>(columns_floats_ + row_floats_ + gemm_floats_) * sizeof(float);
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    const float* x = Input<float>(args, 0);
    const float* weights = weights_constant_ ? nullptr : Input<float>(args, 1);
    const float* bias = !has_bias_ ? nullptr : bias_constant_ ? bias_.data() : Input<float>(args, 2);
    float* y = Output<float>(args, 0);
    if (depthwise_) {
      RunDepthwise(x, weights_constant_ ? weights_.data() : weights, bias, y);
      return;
    }
    float* scratch = static_cast<float*>(args.scratch);
    float* columns = scratch;
    float* row = scratch + columns_floats_;
    float* workspace = row + row_floats_;
    const std::int64_t spatial = g_.OutSpatial();
    for (std::int64_t n = 0; n < g_.batch; ++n) {
      for (std::int64_t group = 0; group < g_.groups; ++group) {
        const float* x_group = x + (n * g_.channels + group * g_.GroupChannels()) * g_.InSpatial();
        float* y_group = y + (n * g_.out_channels + group * g_.GroupOutChannels()) * spatial;
        if (!pointwise_) Im2col(x_group, row, columns);
        Gemm(g_.GroupOutChannels(), spatial, g_.GroupDepth(), 1.0f, WeightsOperand(weights, group),
             ColumnsOperand(x_group, columns), 0.0f, y_group, spatial, workspace);
        if (bias) {
          for (std::int64_t m = 0; m < g_.GroupOutChannels(); ++m) {
            const float b = bias[group * g_.GroupOutChannels() + m];
            float* out = y_group + m * spatial;
            for (std::int64_t i = 0; i < spatial; ++i) out[i] += b;
          }
        }
      }
    }
  }

 private:
  const float* GroupWeights(const float* weights, std::int64_t group) const {
    return weights + group * g_.GroupOutChannels() * g_.GroupDepth();
  }

  // The weights of `group`: prepacked, or (weights not constant) the run's input, row-major.
  GemmOperand WeightsOperand(const float* run_weights, std::int64_t group) const {
    if (weights_constant_) return GemmOperand::Packed(weights_.data() + group * group_packed_size_);
    return GemmOperand::RowMajor(run_weights ? GroupWeights(run_weights, group) : nullptr, g_.GroupDepth());
  }

  // B: x itself for a pointwise convolution, else the packed im2col matrix.
  GemmOperand ColumnsOperand(const float* x_group, const float* columns) const {
    if (pointwise_) return GemmOperand::RowMajor(x_group, g_.InSpatial());
    return GemmOperand::Packed(columns);
  }

  // Writes the im2col matrix of one image's group (row (c, kh, kw), column (oh, ow): the input
  // under that kernel tap for that output, 0 in the padding) in PackB's layout. Each row is
  // built in `row` first, then copied panel by panel.
  void Im2col(const float* x_group, float* row, float* columns) const {
    const std::int64_t depth = g_.GroupDepth();
    const std::int64_t spatial = g_.OutSpatial();
    const std::int64_t padded = RoundUp(spatial, kGemmNr);
    std::fill(row + spatial, row + padded, 0.0f);
    for (std::int64_t c = 0; c < g_.GroupChannels(); ++c) {
      const float* channel = x_group + c * g_.InSpatial();
      for (std::int64_t kh = 0; kh < g_.kernel_h; ++kh) {
        for (std::int64_t kw = 0; kw < g_.kernel_w; ++kw) {
          const ValidRange cols = column_ranges_[static_cast<std::size_t>(kw)];
          const std::int64_t col_offset = kw * g_.dilation_w - g_.pad_left;
          for (std::int64_t oh = 0; oh < g_.out_height; ++oh) {
            float* out = row + oh * g_.out_width;
            const std::int64_t ih = oh * g_.stride_h + kh * g_.dilation_h - g_.pad_top;
            if (ih < 0 || ih >= g_.height) {
              std::fill(out, out + g_.out_width, 0.0f);
              continue;
            }
            const float* in = channel + ih * g_.width;
            std::fill(out, out + cols.begin, 0.0f);
            if (g_.stride_w == 1) {
              std::copy(in + cols.begin + col_offset, in + cols.end + col_offset, out + cols.begin);
            } else {
              for (std::int64_t ow = cols.begin; ow < cols.end; ++ow) out[ow] = in[ow * g_.stride_w + col_offset];
            }
            std::fill(out + cols.end, out + g_.out_width, 0.0f);
          }
          const PackedBRow layout = PackedBRowOf(depth, spatial, (c * g_.kernel_h + kh) * g_.kernel_w + kw);
          for (std::int64_t q = 0; q < padded; q += kGemmNr) {
            std::memcpy(columns + layout.offset + (q / kGemmNr) * layout.panel_stride, row + q,
                        kGemmNr * sizeof(float));
          }
        }
      }
    }
  }

  // One input channel per group: y[n, m] = sum over taps of w[m, 0, kh, kw] * x[n, m / mult]
  // (mult = M / C), accumulated one kernel tap at a time along output rows.
  void RunDepthwise(const float* x, const float* weights, const float* bias, float* y) const {
    const std::int64_t multiplier = g_.GroupOutChannels();
    const std::int64_t spatial = g_.OutSpatial();
    for (std::int64_t n = 0; n < g_.batch; ++n) {
      for (std::int64_t m = 0; m < g_.out_channels; ++m) {
        const float* channel = x + (n * g_.channels + m / multiplier) * g_.InSpatial();
        const float* taps = weights + m * g_.kernel_h * g_.kernel_w;
        float* out = y + (n * g_.out_channels + m) * spatial;
        std::fill(out, out + spatial, bias ? bias[m] : 0.0f);
        for (std::int64_t oh = 0; oh < g_.out_height; ++oh) {
          float* out_row = out + oh * g_.out_width;
          for (std::int64_t kh = 0; kh < g_.kernel_h; ++kh) {
            const std::int64_t ih = oh * g_.stride_h + kh * g_.dilation_h - g_.pad_top;
            if (ih < 0 || ih >= g_.height) continue;
            for (std::int64_t kw = 0; kw < g_.kernel_w; ++kw) {
              const float tap = taps[kh * g_.kernel_w + kw];
              const ValidRange cols = column_ranges_[static_cast<std::size_t>(kw)];
              const float* in = channel + ih * g_.width;
              const std::int64_t offset = kw * g_.dilation_w - g_.pad_left;
              for (std::int64_t ow = cols.begin; ow < cols.end; ++ow) {
                out_row[ow] += tap * in[ow * g_.stride_w + offset];
              }
            }
          }
        }
      }
    }
  }

  ConvGeometry g_;
  bool has_bias_;
  bool depthwise_ = false;
  bool pointwise_ = false;
  std::vector<ValidRange> column_ranges_;  // per kw: the output columns that read inside x
  // Constant weights, packed per group (GEMM path) or as given (depthwise).
  bool weights_constant_ = false;
  std::vector<float> weights_;
  std::int64_t group_packed_size_ = 0;
  bool bias_constant_ = false;
  std::vector<float> bias_;
  // Scratch, in floats: packed im2col matrix, one im2col row, GEMM workspace.
  std::int64_t columns_floats_ = 0;
  std::int64_t row_floats_ = 0;
  std::int64_t gemm_floats_ = 0;
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateConvolution2dWorkload(const backend::ILayerView& layer) {
  ConvGeometry geometry{};
  std::string reason;
  if (!backend::DescribeConvolution(layer, geometry, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  const bool has_bias = layer.GetNumInputs() == 3;
  return std::make_unique<Convolution2dWorkload>(geometry, static_cast<const float*>(layer.GetConstantInput(1)),
                                                 has_bias,
                                                 has_bias ? static_cast<const float*>(layer.GetConstantInput(2))
                                                          : nullptr);
}

}  // namespace backplane::reference
