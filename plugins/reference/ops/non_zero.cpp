// NonZero (op set v2, ONNX NonZero) on every type: the i64 indices [rank, numel] of the non-zero
// elements in C order, padded past `count` with zeros, and count (i64 [1]). f16 and bf16 are
// non-zero when their value is (-0 is zero); bool when true; NaN is non-zero.
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>

#include <algorithm>
#include <cstdint>
#include <vector>

namespace backplane::reference {

namespace {

template <typename T>
bool IsNonZero(T value) {
  if constexpr (kIsFloat16Element<T>) {
    return ConvertElement<float>(value) != 0.0f;
  } else {
    return value != T{};
  }
}

template <typename T>
class NonZeroWorkload final : public backend::IWorkload {
 public:
  explicit NonZeroWorkload(std::vector<std::int64_t> dims) : dims_(std::move(dims)) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const void* x = Input<void>(args, 0);
    auto* indices = Output<std::int64_t>(args, 0);
    std::int64_t numel = 1;
    for (const std::int64_t d : dims_) numel *= d;
    const std::size_t rank = dims_.size();
    std::fill(indices, indices + static_cast<std::int64_t>(rank) * numel, std::int64_t{0});
    std::vector<std::int64_t> position(rank, 0);  // the C-order coordinates of element i
    std::int64_t count = 0;
    for (std::int64_t i = 0; i < numel; ++i) {
      if (IsNonZero(LoadElement<T>(x, static_cast<std::size_t>(i)))) {
        for (std::size_t r = 0; r < rank; ++r) indices[static_cast<std::int64_t>(r) * numel + count] = position[r];
        ++count;
      }
      for (std::size_t r = rank; r-- > 0;) {
        if (++position[r] < dims_[r]) break;
        position[r] = 0;
      }
    }
    Output<std::int64_t>(args, 1)[0] = count;
  }

 private:
  std::vector<std::int64_t> dims_;
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateNonZeroWorkload(const backend::ILayerView& layer) {
  const TensorInfo& x = layer.GetInputInfo(0);
  return VisitElementType(x.type, [&](auto element) -> std::unique_ptr<backend::IWorkload> {
    return std::make_unique<NonZeroWorkload<decltype(element)>>(x.shape.Dims());
  });
}

}  // namespace backplane::reference
