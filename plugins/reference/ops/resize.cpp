// Resize (op set v2, ONNX Resize / Upsample) on f32: each axis whose mapping is not the identity
// is resampled on its own, from the last axis to the first as ONNX's reference does, with the
// taps of backplane/backend/resampling.hpp (their one owner). Intermediate axes are kept in
// double, as the reference computes them.
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/backend/resampling.hpp>
#include <backplane/descriptors.hpp>

#include <cstdint>
#include <vector>

namespace backplane::reference {

namespace {

// One axis to resample: its index and the taps of each output position.
struct AxisPass {
  std::size_t axis = 0;
  std::vector<backend::ResampleTaps> taps;
};

// Whether output position x reads input position x alone (edge clamping may list it twice).
bool ReadsOnlyItself(const backend::ResampleTaps& t, std::int64_t x) {
  if (t.extrapolate) return false;
  double own = 0;
  for (int j = 0; j < t.count; ++j) {
    if (t.index[j] == x) {
      own += t.weight[j];
    } else if (t.weight[j] != 0) {
      return false;
    }
  }
  return own == 1;
}

// Whether the axis maps every position to itself (an axis to skip).
bool IsIdentity(const std::vector<backend::ResampleTaps>& taps, std::int64_t input_length) {
  if (static_cast<std::int64_t>(taps.size()) != input_length) return false;
  for (std::size_t x = 0; x < taps.size(); ++x) {
    if (!ReadsOnlyItself(taps[x], static_cast<std::int64_t>(x))) return false;
  }
  return true;
}

class ResizeWorkload final : public backend::IWorkload {
 public:
  ResizeWorkload(std::vector<std::int64_t> input_dims, std::vector<AxisPass> passes, float extrapolation_value)
      : input_dims_(std::move(input_dims)), passes_(std::move(passes)), extrapolation_(extrapolation_value) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const float* x = Input<float>(args, 0);
    std::vector<std::int64_t> dims = input_dims_;
    std::vector<double> current(x, x + Count(dims)), next;
    for (const AxisPass& pass : passes_) {
      Resample(pass, dims, current, next);
      current.swap(next);
    }
    float* out = Output<float>(args, 0);
    for (std::size_t i = 0; i < current.size(); ++i) out[i] = static_cast<float>(current[i]);
  }

 private:
  static std::size_t Count(const std::vector<std::int64_t>& dims) {
    std::int64_t n = 1;
    for (const auto d : dims) n *= d;
    return static_cast<std::size_t>(n);
  }

  // `from` (shaped `dims`) resampled along pass.axis into `to`; dims[axis] becomes the output length.
  void Resample(const AxisPass& pass, std::vector<std::int64_t>& dims, const std::vector<double>& from,
                std::vector<double>& to) const {
    std::int64_t outer = 1, inner = 1;
    for (std::size_t a = 0; a < pass.axis; ++a) outer *= dims[a];
    for (std::size_t a = pass.axis + 1; a < dims.size(); ++a) inner *= dims[a];
    const std::int64_t length = dims[pass.axis];
    const auto out_length = static_cast<std::int64_t>(pass.taps.size());
    to.assign(static_cast<std::size_t>(outer * out_length * inner), 0.0);
    for (std::int64_t o = 0; o < outer; ++o) {
      for (std::int64_t p = 0; p < out_length; ++p) {
        const backend::ResampleTaps& t = pass.taps[static_cast<std::size_t>(p)];
        double* row = to.data() + (o * out_length + p) * inner;
        for (std::int64_t i = 0; i < inner; ++i) {
          if (t.extrapolate) {
            row[i] = extrapolation_;
            continue;
          }
          double sum = 0;
          for (int j = 0; j < t.count; ++j) {
            sum += t.weight[j] * from[static_cast<std::size_t>((o * length + t.index[j]) * inner + i)];
          }
          row[i] = sum;
        }
      }
    }
    dims[pass.axis] = out_length;
  }

  std::vector<std::int64_t> input_dims_;
  std::vector<AxisPass> passes_;  // last axis first
  double extrapolation_;
};

}  // namespace

bool IsResizeSupported(const backend::ILayerView& layer, std::string& reason) {
  if (layer.GetInputInfo(0).type == DataType::kFloat32) return true;
  reason = std::string("CpuRef resizes f32 tensors, not ") + ToString(layer.GetInputInfo(0).type);
  return false;
}

std::unique_ptr<backend::IWorkload> CreateResizeWorkload(const backend::ILayerView& layer) {
  const auto& d = DescriptorOf<ResizeDescriptor>(layer);
  const std::vector<std::int64_t>& dims = layer.GetInputInfo(0).shape.Dims();
  std::vector<AxisPass> passes;
  for (std::size_t axis = dims.size(); axis-- > 0;) {
    AxisPass pass{axis, {}};
    if (dims[axis] > 0) {
      for (std::int64_t x = 0; x < d.sizes[axis]; ++x) pass.taps.push_back(backend::Taps(d, axis, dims[axis], x));
    }
    if (!IsIdentity(pass.taps, dims[axis])) passes.push_back(std::move(pass));
  }
  return std::make_unique<ResizeWorkload>(dims, std::move(passes), d.extrapolation_value);
}

}  // namespace backplane::reference
