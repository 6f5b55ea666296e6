// Softmax along one axis, on f32, f64, f16 and bf16: exp(x - max) / sum(exp(x - max)), so no
// exp() overflows; computed in ComputeElement<T> (sums in double), each output rounded once.
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
#include <type_traits>

namespace backplane::reference {

namespace {

template <typename T>
class SoftmaxWorkload final : public backend::IWorkload {
  using C = ComputeElement<T>;  // float for f32, f16 and bf16; double for f64
  // f32 and f64 keep each exp in y itself; f16 and bf16 keep them in C in scratch memory, so
  // each output is rounded once.
  static constexpr bool kInPlace = std::is_same_v<T, C>;

 public:
  SoftmaxWorkload(std::int64_t outer, std::int64_t n, std::int64_t inner) : outer_(outer), n_(n), inner_(inner) {}

  // Per-column sums (double) and maxima (C) when inner > 1, then the exps of one [n, inner]
  // slice unless kInPlace.
  std::size_t GetScratchSize() const override {
    const auto columns = static_cast<std::size_t>(inner_ > 1 ? inner_ : 0);
    const std::size_t exps = kInPlace ? 0 : static_cast<std::size_t>(n_ * inner_) * sizeof(C);
    return columns * (sizeof(double) + sizeof(C)) + exps;
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    const T* x = Input<T>(args, 0);
    T* y = Output<T>(args, 0);
    if (outer_ == 0 || n_ == 0 || inner_ == 0) return;
    // Sums first: the scratch base is 64-byte aligned, so every array is aligned.
    auto* sums = static_cast<double*>(args.scratch);
    auto* maxima = reinterpret_cast<C*>(sums + (inner_ > 1 ? inner_ : 0));
    C* buffer = maxima + (inner_ > 1 ? inner_ : 0);
    if (inner_ == 1) {
      for (std::int64_t o = 0; o < outer_; ++o) Row(x + o * n_, y + o * n_, buffer);
      return;
    }
    for (std::int64_t o = 0; o < outer_; ++o) {
      const T* xo = x + o * n_ * inner_;
      T* yo = y + o * n_ * inner_;
      C* eo = Exps(yo, buffer);
      for (std::int64_t j = 0; j < inner_; ++j) {
        maxima[j] = -std::numeric_limits<C>::infinity();
        sums[j] = 0.0;
      }
      for (std::int64_t k = 0; k < n_; ++k) {
        const T* row = xo + k * inner_;
        for (std::int64_t j = 0; j < inner_; ++j) {
          const C value = ConvertElement<C>(row[j]);
          maxima[j] = value > maxima[j] ? value : maxima[j];
        }
      }
      for (std::int64_t k = 0; k < n_; ++k) {
        const T* row = xo + k * inner_;
        C* e = eo + k * inner_;
        for (std::int64_t j = 0; j < inner_; ++j) {
          e[j] = std::exp(ConvertElement<C>(row[j]) - maxima[j]);
          sums[j] += e[j];
        }
      }
      for (std::int64_t k = 0; k < n_; ++k) {
        const C* e = eo + k * inner_;
        T* out = yo + k * inner_;
        for (std::int64_t j = 0; j < inner_; ++j) out[j] = ConvertElement<T>(static_cast<C>(e[j] / sums[j]));
      }
    }
  }

 private:
  // Where the exps of the slice whose output is `y` go.
  static C* Exps(T* y, C* buffer) {
    if constexpr (kInPlace) {
      return y;
    } else {
      return buffer;
    }
  }

  void Row(const T* x, T* y, C* buffer) const {
    C* e = Exps(y, buffer);
    C maximum = ConvertElement<C>(x[0]);
    for (std::int64_t k = 1; k < n_; ++k) {
      const C value = ConvertElement<C>(x[k]);
      maximum = value > maximum ? value : maximum;
    }
    double sum = 0.0;
    for (std::int64_t k = 0; k < n_; ++k) {
      e[k] = std::exp(ConvertElement<C>(x[k]) - maximum);
      sum += e[k];
    }
    for (std::int64_t k = 0; k < n_; ++k) y[k] = ConvertElement<T>(static_cast<C>(e[k] / sum));
  }

  std::int64_t outer_, n_, inner_;
};

}  // namespace

bool IsSoftmaxSupported(const backend::ILayerView& layer, std::string& reason) {
  const DataType type = layer.GetInputInfo(0).type;
  if (IsFloatingPointType(type)) return true;
  reason = std::string("CpuRef runs Softmax on f32, f64, f16 and bf16, not ") + ToString(type);
  return false;
}

std::unique_ptr<backend::IWorkload> CreateSoftmaxWorkload(const backend::ILayerView& layer) {
  const TensorShape& shape = layer.GetInputInfo(0).shape;
  std::size_t axis = 0;
  NormalizeAxis(DescriptorOf<SoftmaxDescriptor>(layer).axis, shape.Rank(), axis);
  const backend::AxisExtents around = backend::ExtentsAroundAxis(shape, axis);
  return MakeForFloatingPointType<SoftmaxWorkload>(layer.GetInputInfo(0).type, around.outer, around.length,
                                                   around.inner);
}

}  // namespace backplane::reference
