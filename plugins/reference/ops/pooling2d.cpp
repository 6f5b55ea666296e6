// Pooling2d, f32, NCHW, ONNX MaxPool / AveragePool / GlobalMaxPool / GlobalAveragePool.
//
// Output extent per axis: (size + pads - dilation * (kernel - 1) - 1) / stride + 1, rounded
// down, or up with ceil_mode; with ceil_mode the last window must still start inside the input
// or the leading padding, else it is dropped. Padding never contributes a value: max takes the
// largest input element under the window; average divides the sum of the input elements by
// their count, or, with count_include_pad, by the number of window taps that fall inside the
// padded input (taps of a ceil_mode window past the trailing padding are not counted). A window
// that covers no input element gives 0 (average) or the lowest float (max).
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <algorithm>
#include <limits>
#include <vector>

namespace backplane::reference {

namespace {

// One axis of the pooling: input size, window and output size.
struct PoolAxis {
  std::int64_t size, kernel, stride, dilation, pad_begin, pad_end, out;

  std::int64_t Start(std::int64_t o) const { return o * stride - pad_begin; }
  bool InInput(std::int64_t i) const { return i >= 0 && i < size; }
  bool InPadded(std::int64_t i) const { return i >= -pad_begin && i < size + pad_end; }
};

// Output extent of one axis; false when the dilated kernel does not fit the padded input.
bool OutputExtent(PoolAxis& axis, bool ceil_mode) {
  const std::int64_t span = axis.dilation * (axis.kernel - 1) + 1;
  const std::int64_t room = axis.size + axis.pad_begin + axis.pad_end - span;
  if (room < 0) return false;
  axis.out = (ceil_mode ? (room + axis.stride - 1) / axis.stride : room / axis.stride) + 1;
  if (ceil_mode && (axis.out - 1) * axis.stride >= axis.size + axis.pad_begin) --axis.out;
  return true;
}

class Pooling2dWorkload final : public backend::IWorkload {
 public:
  Pooling2dWorkload(PoolingType type, bool count_include_pad, std::int64_t planes, const PoolAxis& rows,
                    const PoolAxis& cols)
      : type_(type), count_include_pad_(count_include_pad), planes_(planes), rows_(rows), cols_(cols) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const float* x = Input<float>(args, 0);
    float* y = Output<float>(args, 0);
    const std::int64_t in_plane = rows_.size * cols_.size;
    const std::int64_t out_plane = rows_.out * cols_.out;
    for (std::int64_t p = 0; p < planes_; ++p) {
      const float* in = x + p * in_plane;
      float* out = y + p * out_plane;
      for (std::int64_t oh = 0; oh < rows_.out; ++oh) {
        for (std::int64_t ow = 0; ow < cols_.out; ++ow) out[oh * cols_.out + ow] = Window(in, oh, ow);
      }
    }
  }

 private:
  float Window(const float* in, std::int64_t oh, std::int64_t ow) const {
    float max = std::numeric_limits<float>::lowest();
    float sum = 0.0f;
    std::int64_t inputs = 0, padded_rows = 0, padded_cols = 0;
    for (std::int64_t kh = 0; kh < rows_.kernel; ++kh) {
      const std::int64_t ih = rows_.Start(oh) + kh * rows_.dilation;
      padded_rows += rows_.InPadded(ih);
      if (!rows_.InInput(ih)) continue;
      for (std::int64_t kw = 0; kw < cols_.kernel; ++kw) {
        const std::int64_t iw = cols_.Start(ow) + kw * cols_.dilation;
        if (!cols_.InInput(iw)) continue;
        const float value = in[ih * cols_.size + iw];
        max = std::max(max, value);
        sum += value;
        ++inputs;
      }
    }
    if (type_ == PoolingType::kMax) return max;
    for (std::int64_t kw = 0; kw < cols_.kernel; ++kw) {
      padded_cols += cols_.InPadded(cols_.Start(ow) + kw * cols_.dilation);
    }
    const std::int64_t count = count_include_pad_ ? padded_rows * padded_cols : inputs;
    return count == 0 ? 0.0f : sum / static_cast<float>(count);
  }

  PoolingType type_;
  bool count_include_pad_;
  std::int64_t planes_;  // N * C
  PoolAxis rows_, cols_;
};

bool Fail(std::string& reason, const backend::ILayerView& layer, const std::string& what) {
  reason = "Pooling2d layer '" + layer.GetName() + "': " + what;
  return false;
}

// The two axes of the layer's pooling (a global pooling is one window over the whole plane).
bool DescribePooling(const backend::ILayerView& layer, PoolAxis& rows, PoolAxis& cols, std::string& reason) {
  const auto& d = DescriptorOf<Pooling2dDescriptor>(layer);
  const TensorShape& x = layer.GetInputInfo(0).shape;
  if (x.Rank() != 4) return Fail(reason, layer, "input must be [N, C, H, W], got " + ToString(x));
  if (d.type != PoolingType::kMax && d.type != PoolingType::kAverage) {
    return Fail(reason, layer, "pooling type " + std::to_string(static_cast<std::uint32_t>(d.type)) +
                                   " is not one CpuRef knows");
  }
  if (d.global) {
    rows = {x[2], x[2], 1, 1, 0, 0, 1};
    cols = {x[3], x[3], 1, 1, 0, 0, 1};
    if (x[2] == 0 || x[3] == 0) return Fail(reason, layer, "global pooling of an empty plane " + ToString(x));
  } else {
    for (std::size_t i = 0; i < 2; ++i) {
      if (d.kernel[i] == 0 || d.strides[i] == 0 || d.dilations[i] == 0) {
        return Fail(reason, layer, "kernel, strides and dilations must be at least 1");
      }
    }
    rows = {x[2], d.kernel[0], d.strides[0], d.dilations[0], d.pads[0], d.pads[2], 0};
    cols = {x[3], d.kernel[1], d.strides[1], d.dilations[1], d.pads[1], d.pads[3], 0};
    if (!OutputExtent(rows, d.ceil_mode) || !OutputExtent(cols, d.ceil_mode)) {
      return Fail(reason, layer, "the dilated kernel does not fit the padded input " + ToString(x));
    }
  }
  const TensorShape expected{x[0], x[1], rows.out, cols.out};
  if (layer.GetOutputInfo(0).shape != expected) {
    return Fail(reason, layer, "output shape " + ToString(layer.GetOutputInfo(0).shape) + " should be " +
                                   ToString(expected));
  }
  return true;
}

}  // namespace

bool IsPooling2dSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!layer.GetDescriptor()) return Fail(reason, layer, "no descriptor");
  if (!HasArity(layer, 1, 1, 1, reason) || !AllFloat32(layer, reason)) return false;
  PoolAxis rows{}, cols{};
  return DescribePooling(layer, rows, cols, reason);
}

std::unique_ptr<backend::IWorkload> CreatePooling2dWorkload(const backend::ILayerView& layer) {
  PoolAxis rows{}, cols{};
  std::string reason;
  if (!HasArity(layer, 1, 1, 1, reason) || !DescribePooling(layer, rows, cols, reason)) {
    throw Exception(ErrorCode::kUnsupported, reason);
  }
  const auto& descriptor = DescriptorOf<Pooling2dDescriptor>(layer);
  const TensorShape& x = layer.GetInputInfo(0).shape;
  return std::make_unique<Pooling2dWorkload>(descriptor.type, descriptor.count_include_pad, x[0] * x[1], rows, cols);
}

}  // namespace backplane::reference
