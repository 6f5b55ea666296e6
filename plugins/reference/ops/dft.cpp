// Dft (op set v2, ONNX DFT; the C header's BpDftAttributes): each signal along the axis is read
// as complex numbers (a trailing axis of 1: real; of 2: real and imaginary), cut or zero-padded to
// the transform's length, transformed in double by a mixed-radix Cooley-Tukey (radix-2 steps for
// powers of two; a direct O(p^2) transform only for a prime length p that cannot be split), and
// rounded once to the element type. f32, f64 and the 16-bit floats.
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>

#include <cmath>
#include <complex>
#include <cstdint>
#include <string>
#include <vector>

namespace backplane::reference {

namespace {

using Complex = std::complex<double>;

// The transform of one length: its twiddle factors e^(-+2 pi j t / n) for t in [0, n), computed
// once. Immutable after construction; Transform is thread-safe.
class FourierPlan {
 public:
  FourierPlan(std::int64_t length, bool inverse) : n_(static_cast<std::size_t>(length)), twiddles_(n_) {
    const double sign = inverse ? 1.0 : -1.0;
    const double pi = std::acos(-1.0);
    for (std::size_t t = 0; t < n_; ++t) {
      const double angle = sign * 2.0 * pi * static_cast<double>(t) / static_cast<double>(n_);
      twiddles_[t] = {std::cos(angle), std::sin(angle)};
    }
  }

  std::size_t length() const { return n_; }

  // out[k] = sum_t in[t] w^(t k) for k in [0, n); `work` holds n values. `in` and `out` differ.
  void Transform(const Complex* in, Complex* out, Complex* work) const { Split(in, 1, n_, out, work); }

 private:
  // e^(-+2 pi j t / m) for a sub-transform of length m (m divides n).
  Complex Twiddle(std::size_t t, std::size_t m) const { return twiddles_[(t % m) * (n_ / m)]; }

  static std::size_t SmallestFactor(std::size_t m) {
    if (m % 2 == 0) return 2;
    for (std::size_t p = 3; p * p <= m; p += 2) {
      if (m % p == 0) return p;
    }
    return m;
  }

  // The transform of length m of in[0], in[stride], ... into out[0 .. m): the p sub-transforms
  // of the elements r, r + p, ... (each of length m / p) into out[r * m / p ..), then the
  // butterflies over the p values at each k, in place (through work).
  void Split(const Complex* in, std::size_t stride, std::size_t m, Complex* out, Complex* work) const {
    const std::size_t p = SmallestFactor(m);
    if (p == m) {
      Direct(in, stride, m, out);
      return;
    }
    const std::size_t q = m / p;
    for (std::size_t r = 0; r < p; ++r) Split(in + r * stride, stride * p, q, out + r * q, work);
    for (std::size_t k = 0; k < q; ++k) {
      for (std::size_t r = 0; r < p; ++r) work[r] = out[r * q + k] * Twiddle(r * k, m);
      for (std::size_t s = 0; s < p; ++s) {  // X[k + s q] = sum_r w_m^(r (k + s q)) Y_r[k]
        Complex sum = 0.0;
        for (std::size_t r = 0; r < p; ++r) sum += work[r] * Twiddle(r * s * q, m);
        out[k + s * q] = sum;
      }
    }
  }

  void Direct(const Complex* in, std::size_t stride, std::size_t m, Complex* out) const {
    for (std::size_t k = 0; k < m; ++k) {
      Complex sum = 0.0;
      for (std::size_t t = 0; t < m; ++t) sum += in[t * stride] * Twiddle(t * k, m);
      out[k] = sum;
    }
  }

  std::size_t n_;
  std::vector<Complex> twiddles_;
};

template <typename T>
class DftWorkload final : public backend::IWorkload {
 public:
  DftWorkload(const TensorShape& x, const DftDescriptor& d, const TensorShape& y)
      : extents_(backend::ExtentsAroundAxis(x, static_cast<std::size_t>(d.axis))),
        parts_(x.Dims().back()),
        bins_(y.Dims()[static_cast<std::size_t>(d.axis)]),
        scale_(d.inverse ? 1.0 / static_cast<double>(d.length ? d.length : extents_.length) : 1.0),
        plan_(d.length ? d.length : extents_.length, d.inverse) {}

  // The signal, its transform and the butterflies' values.
  std::size_t GetScratchSize() const override { return 3 * plan_.length() * sizeof(Complex); }

  void Execute(const backend::WorkloadArgs& args) const override {
    const T* x = Input<T>(args, 0);
    T* y = Output<T>(args, 0);
    Complex* signal = static_cast<Complex*>(args.scratch);
    Complex* spectrum = signal + plan_.length();
    Complex* work = spectrum + plan_.length();
    const std::int64_t n = extents_.length, points = static_cast<std::int64_t>(plan_.length());
    const std::int64_t lines = extents_.inner / parts_;  // signals per outer index
    for (std::int64_t o = 0; o < extents_.outer; ++o) {
      for (std::int64_t i = 0; i < lines; ++i) {
        for (std::int64_t t = 0; t < points; ++t) {
          const T* at = x + ((o * n + t) * lines + i) * parts_;
          signal[t] = t >= n ? Complex{} : Complex{Load(at[0]), parts_ == 2 ? Load(at[1]) : 0.0};
        }
        plan_.Transform(signal, spectrum, work);
        for (std::int64_t k = 0; k < bins_; ++k) {
          T* out = y + ((o * bins_ + k) * lines + i) * 2;
          out[0] = ConvertElement<T>(spectrum[k].real() * scale_);
          out[1] = ConvertElement<T>(spectrum[k].imag() * scale_);
        }
      }
    }
  }

 private:
  static double Load(T value) { return ConvertElement<double>(value); }

  backend::AxisExtents extents_;
  std::int64_t parts_;  // 1 (real) or 2 (complex)
  std::int64_t bins_;
  double scale_;
  FourierPlan plan_;
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateDftWorkload(const backend::ILayerView& layer) {
  const TensorInfo& x = layer.GetInputInfo(0);
  return MakeForFloatingPointType<DftWorkload>(x.type, x.shape, DescriptorOf<DftDescriptor>(layer),
                                               layer.GetOutputInfo(0).shape);
}

}  // namespace backplane::reference
