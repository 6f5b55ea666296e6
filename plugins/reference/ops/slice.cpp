// Slice (ONNX), any element type. Per sliced axis: negative starts and ends count from the
// end; then, for a positive step, both are clamped to [0, dim], for a negative step start to
// [0, dim-1] and end to [-1, dim-1]; the axis keeps ceil((end - start) / step) elements
// (none if that is negative). The copy walks the output in order and the input from the
// first selected element with stride step * (dense stride) per axis.
#include "broadcast.hpp"
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/backend/op_geometry.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <cstdint>
#include <vector>

namespace backplane::reference {

namespace {

class SliceWorkload final : public backend::IWorkload {
 public:
  SliceWorkload(StridedLoop<2> loop, std::int64_t first, std::size_t element_size)
      : loop_(std::move(loop)), first_(first), element_size_(element_size) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const auto* in = Input<unsigned char>(args, 0);
    auto* out = Output<unsigned char>(args, 0);
    const auto size = static_cast<std::int64_t>(element_size_);
    loop_.ForEachRow([&](const StridedLoop<2>::Offsets& at, std::int64_t n, const StridedLoop<2>::Offsets& step) {
      CopyElements(out + at[0] * size, step[0], in + (first_ + at[1]) * size, step[1], n, element_size_);
    });
  }

 private:
  StridedLoop<2> loop_;
  std::int64_t first_;  // element offset of the first selected input element
  std::size_t element_size_;
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateSliceWorkload(const backend::ILayerView& layer) {
  const TensorInfo& in = layer.GetInputInfo(0);
  backend::SliceGeometry g;
  std::string reason;
  if (!backend::DescribeSlice(layer, g, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  return std::make_unique<SliceWorkload>(StridedLoop<2>(g.output.Dims(), {DenseStrides(g.output), g.read_strides}),
                                         g.first, SizeOf(in.type));
}

}  // namespace backplane::reference
