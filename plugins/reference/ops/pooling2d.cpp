// Pooling2d, NCHW, ONNX MaxPool / AveragePool / GlobalMaxPool / GlobalAveragePool: max on every
// type but bool, average on f32, f64, f16 and bf16; computed in ComputeElement<T> (float for f16
// and bf16, each result rounded once).
//
// Output extent per axis: (size + pads - dilation * (kernel - 1) - 1) / stride + 1, rounded
// down, or up with ceil_mode; with ceil_mode the last window must still start inside the input
// or the leading padding, else it is dropped. Padding never contributes a value: max takes the
// largest input element under the window; average divides the sum of the input elements by
// their count, or, with count_include_pad, by the number of window taps that fall inside the
// padded input (taps of a ceil_mode window past the trailing padding are not counted). A window
// that covers no input element gives 0 (average) or the type's lowest value (max).
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/backend/op_geometry.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <algorithm>
#include <limits>
#include <vector>

namespace backplane::reference {

namespace {

using backend::PoolAxis;

template <typename T>
class Pooling2dWorkload final : public backend::IWorkload {
  using Compute = ComputeElement<T>;

 public:
  Pooling2dWorkload(PoolingType type, bool count_include_pad, std::int64_t planes, const PoolAxis& rows,
                    const PoolAxis& cols)
      : type_(type), count_include_pad_(count_include_pad), planes_(planes), rows_(rows), cols_(cols) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const T* x = Input<T>(args, 0);
    T* y = Output<T>(args, 0);
    const std::int64_t in_plane = rows_.size * cols_.size;
    const std::int64_t out_plane = rows_.out * cols_.out;
    for (std::int64_t p = 0; p < planes_; ++p) {
      const T* in = x + p * in_plane;
      T* out = y + p * out_plane;
      for (std::int64_t oh = 0; oh < rows_.out; ++oh) {
        for (std::int64_t ow = 0; ow < cols_.out; ++ow) out[oh * cols_.out + ow] = ConvertElement<T>(Window(in, oh, ow));
      }
    }
  }

 private:
  Compute Window(const T* in, std::int64_t oh, std::int64_t ow) const {
    Compute max = std::numeric_limits<Compute>::lowest();
    Compute sum{0};
    std::int64_t inputs = 0, padded_rows = 0, padded_cols = 0;
    for (std::int64_t kh = 0; kh < rows_.kernel; ++kh) {
      const std::int64_t ih = rows_.Start(oh) + kh * rows_.dilation;
      padded_rows += rows_.InPadded(ih);
      if (!rows_.InInput(ih)) continue;
      for (std::int64_t kw = 0; kw < cols_.kernel; ++kw) {
        const std::int64_t iw = cols_.Start(ow) + kw * cols_.dilation;
        if (!cols_.InInput(iw)) continue;
        const auto value = ConvertElement<Compute>(in[ih * cols_.size + iw]);
        max = std::max(max, value);
        if constexpr (kIsFloatingPointElement<T>) sum += value;
        ++inputs;
      }
    }
    if (type_ == PoolingType::kMax) return max;
    for (std::int64_t kw = 0; kw < cols_.kernel; ++kw) {
      padded_cols += cols_.InPadded(cols_.Start(ow) + kw * cols_.dilation);
    }
    const std::int64_t count = count_include_pad_ ? padded_rows * padded_cols : inputs;
    return count == 0 ? Compute{0} : sum / static_cast<Compute>(count);
  }

  PoolingType type_;
  bool count_include_pad_;
  std::int64_t planes_;  // N * C
  PoolAxis rows_, cols_;
};

}  // namespace

bool IsPooling2dSupported(const backend::ILayerView& layer, std::string& reason) {
  const DataType type = layer.GetInputInfo(0).type;
  const bool max = DescriptorOf<Pooling2dDescriptor>(layer).type == PoolingType::kMax;
  if (IsFloatingPointType(type) || (max && IsArithmeticType(type))) return true;
  reason = std::string("CpuRef runs max pooling on every type but bool and the others on f32, f64, f16 and bf16, not ") +
           ToString(type);
  return false;
}

std::unique_ptr<backend::IWorkload> CreatePooling2dWorkload(const backend::ILayerView& layer) {
  backend::PoolingGeometry g;
  std::string reason;
  if (!backend::DescribePooling(layer, g, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  const auto& descriptor = DescriptorOf<Pooling2dDescriptor>(layer);
  return MakeForArithmeticType<Pooling2dWorkload>(layer.GetInputInfo(0).type, descriptor.type,
                                                 descriptor.count_include_pad, g.batch * g.channels, g.rows, g.cols);
}

}  // namespace backplane::reference
