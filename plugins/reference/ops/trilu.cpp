// Trilu (op set v2, ONNX Trilu): keeps the upper (j - i >= k) or lower (j - i <= k) triangle of
// each matrix in the last two axes and zeroes the rest; k is the descriptor's, or the optional
// input 1's (an i64 scalar, read in every run). Copies elements, so one kernel per element size
// serves every type (zero is all-zero bytes in each).
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>

#include <algorithm>
#include <cstdint>

namespace backplane::reference {

namespace {

// Beyond +-(rows + columns) every k gives the same triangle; clamping keeps i + k in range.
std::int64_t ClampK(std::int64_t k, std::int64_t rows, std::int64_t columns) {
  return std::min(std::max(k, -(rows + columns)), rows + columns);
}

template <typename T>
class TriluWorkload final : public backend::IWorkload {
 public:
  // `k` is used when the layer has no input 1.
  TriluWorkload(bool upper, std::int64_t k, std::int64_t matrices, std::int64_t rows, std::int64_t columns)
      : upper_(upper), k_(ClampK(k, rows, columns)), matrices_(matrices), rows_(rows), columns_(columns) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const T* x = Input<T>(args, 0);
    T* out = Output<T>(args, 0);
    const std::int64_t k = args.inputs.size() > 1 ? ClampK(*Input<std::int64_t>(args, 1), rows_, columns_) : k_;
    for (std::int64_t m = 0; m < matrices_ * rows_; ++m) {
      const std::int64_t i = m % rows_;
      const std::int64_t offset = m * columns_;
      // Row i keeps columns [begin, end): j >= i + k (upper) or j <= i + k (lower).
      const std::int64_t begin = upper_ ? Column(i + k) : 0;
      const std::int64_t end = upper_ ? columns_ : Column(i + k + 1);
      for (std::int64_t j = 0; j < columns_; ++j) {
        out[offset + j] = (j >= begin && j < end) ? x[offset + j] : T{0};
      }
    }
  }

 private:
  std::int64_t Column(std::int64_t j) const { return std::min(std::max<std::int64_t>(j, 0), columns_); }

  bool upper_;
  std::int64_t k_, matrices_, rows_, columns_;
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateTriluWorkload(const backend::ILayerView& layer) {
  const auto& descriptor = DescriptorOf<TriluDescriptor>(layer);
  const TensorInfo& x = layer.GetInputInfo(0);
  const auto& dims = x.shape.Dims();
  const std::int64_t rows = dims[dims.size() - 2];
  const std::int64_t columns = dims.back();
  const std::int64_t matrices = rows * columns == 0 ? 0 : x.shape.NumElements() / (rows * columns);
  return MakeForElementSize<TriluWorkload>(SizeOf(x.type), descriptor.upper, descriptor.k, matrices, rows, columns);
}

}  // namespace backplane::reference
