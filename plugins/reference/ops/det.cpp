// Det (op set v2, ONNX Det): the determinant of each M x M matrix of [..., M, M], by LU
// decomposition with partial pivoting in double (0 for a singular matrix; 1 for M = 0), rounded
// once to the element type; f32, f64 and the 16-bit floats.
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <utility>

namespace backplane::reference {

namespace {

// The determinant of the m x m matrix in `a` (row-major), which it overwrites.
double Determinant(double* a, std::int64_t m) {
  double det = 1.0;
  for (std::int64_t col = 0; col < m; ++col) {
    std::int64_t pivot = col;
    for (std::int64_t row = col + 1; row < m; ++row) {
      if (std::fabs(a[row * m + col]) > std::fabs(a[pivot * m + col])) pivot = row;
    }
    if (a[pivot * m + col] == 0.0) return 0.0;
    if (pivot != col) {
      for (std::int64_t k = 0; k < m; ++k) std::swap(a[pivot * m + k], a[col * m + k]);
      det = -det;
    }
    const double diagonal = a[col * m + col];
    det *= diagonal;
    for (std::int64_t row = col + 1; row < m; ++row) {
      const double factor = a[row * m + col] / diagonal;
      for (std::int64_t k = col + 1; k < m; ++k) a[row * m + k] -= factor * a[col * m + k];
    }
  }
  return det;
}

template <typename T>
class DetWorkload final : public backend::IWorkload {
 public:
  DetWorkload(std::int64_t matrices, std::int64_t m) : matrices_(matrices), m_(m) {}

  std::size_t GetScratchSize() const override { return static_cast<std::size_t>(m_ * m_) * sizeof(double); }

  void Execute(const backend::WorkloadArgs& args) const override {
    const T* x = Input<T>(args, 0);
    T* y = Output<T>(args, 0);
    double* a = static_cast<double*>(args.scratch);
    const std::int64_t size = m_ * m_;
    for (std::int64_t b = 0; b < matrices_; ++b) {
      for (std::int64_t k = 0; k < size; ++k) a[k] = ConvertElement<double>(x[b * size + k]);
      y[b] = ConvertElement<T>(Determinant(a, m_));
    }
  }

 private:
  std::int64_t matrices_, m_;
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateDetWorkload(const backend::ILayerView& layer) {
  const TensorInfo& x = layer.GetInputInfo(0);
  const std::int64_t m = x.shape.Dims().back();
  return MakeForFloatingPointType<DetWorkload>(x.type, layer.GetOutputInfo(0).shape.NumElements(), m);
}

}  // namespace backplane::reference
