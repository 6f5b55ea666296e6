// Softmax along one axis, f32: exp(x - max) / sum(exp(x - max)), so no exp() overflows.
//
// The input is [outer, n, inner] around the axis. With inner > 1 the n entries of one softmax
// are inner elements apart; each pass then sweeps whole [inner] rows (cache friendly) and
// keeps the per-column maxima and sums in the run's scratch memory.
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

namespace backplane::reference {

namespace {

class SoftmaxWorkload final : public backend::IWorkload {
 public:
  SoftmaxWorkload(std::int64_t outer, std::int64_t n, std::int64_t inner) : outer_(outer), n_(n), inner_(inner) {}

  std::size_t GetScratchSize() const override {
    return inner_ > 1 ? static_cast<std::size_t>(inner_) * (sizeof(double) + sizeof(float)) : 0;
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    const float* x = Input<float>(args, 0);
    float* y = Output<float>(args, 0);
    if (outer_ == 0 || n_ == 0 || inner_ == 0) return;
    if (inner_ == 1) {
      for (std::int64_t o = 0; o < outer_; ++o) Row(x + o * n_, y + o * n_);
      return;
    }
    // Sums first: the scratch base is 64-byte aligned, so both arrays are aligned.
    auto* sums = static_cast<double*>(args.scratch);
    auto* maxima = reinterpret_cast<float*>(sums + inner_);
    for (std::int64_t o = 0; o < outer_; ++o) {
      const float* xo = x + o * n_ * inner_;
      float* yo = y + o * n_ * inner_;
      for (std::int64_t j = 0; j < inner_; ++j) {
        maxima[j] = -std::numeric_limits<float>::infinity();
        sums[j] = 0.0;
      }
      for (std::int64_t k = 0; k < n_; ++k) {
        const float* row = xo + k * inner_;
        for (std::int64_t j = 0; j < inner_; ++j) maxima[j] = row[j] > maxima[j] ? row[j] : maxima[j];
      }
      for (std::int64_t k = 0; k < n_; ++k) {
        const float* row = xo + k * inner_;
        float* out = yo + k * inner_;
        for (std::int64_t j = 0; j < inner_; ++j) {
          out[j] = std::exp(row[j] - maxima[j]);
          sums[j] += out[j];
        }
      }
      for (std::int64_t k = 0; k < n_; ++k) {
        float* out = yo + k * inner_;
        for (std::int64_t j = 0; j < inner_; ++j) out[j] = static_cast<float>(out[j] / sums[j]);
      }
    }
  }

 private:
  void Row(const float* x, float* y) const {
    float maximum = x[0];
    for (std::int64_t k = 1; k < n_; ++k) maximum = x[k] > maximum ? x[k] : maximum;
    double sum = 0.0;
    for (std::int64_t k = 0; k < n_; ++k) {
      y[k] = std::exp(x[k] - maximum);
      sum += y[k];
    }
    for (std::int64_t k = 0; k < n_; ++k) y[k] = static_cast<float>(y[k] / sum);
  }

  std::int64_t outer_, n_, inner_;
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateSoftmaxWorkload(const backend::ILayerView& layer) {
  const TensorShape& shape = layer.GetInputInfo(0).shape;
  std::size_t axis = 0;
  NormalizeAxis(DescriptorOf<SoftmaxDescriptor>(layer).axis, shape.Rank(), axis);
  const backend::AxisExtents around = backend::ExtentsAroundAxis(shape, axis);
  return std::make_unique<SoftmaxWorkload>(around.outer, around.length, around.inner);
}

}  // namespace backplane::reference
