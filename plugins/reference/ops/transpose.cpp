// Transpose, any element type: output dimension i is input dimension permutation[i]. The
// output is written in order while the input is read through permuted strides; dimensions
// that stay adjacent in both are merged into single rows.
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

class TransposeWorkload final : public backend::IWorkload {
 public:
  TransposeWorkload(StridedLoop<2> loop, std::size_t element_size) : loop_(std::move(loop)), element_size_(element_size) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const auto* in = Input<unsigned char>(args, 0);
    auto* out = Output<unsigned char>(args, 0);
    const auto size = static_cast<std::int64_t>(element_size_);
    loop_.ForEachRow([&](const StridedLoop<2>::Offsets& at, std::int64_t n, const StridedLoop<2>::Offsets& step) {
      CopyElements(out + at[0] * size, step[0], in + at[1] * size, step[1], n, element_size_);
    });
  }

 private:
  StridedLoop<2> loop_;
  std::size_t element_size_;
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateTransposeWorkload(const backend::ILayerView& layer) {
  const TensorInfo& in = layer.GetInputInfo(0);
  const TensorShape& out = layer.GetOutputInfo(0).shape;
  backend::TransposeGeometry g;
  std::string reason;
  if (!backend::DescribeTranspose(layer, g, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  return std::make_unique<TransposeWorkload>(StridedLoop<2>(out.Dims(), {DenseStrides(out), g.read_strides}),
                                             SizeOf(in.type));
}

}  // namespace backplane::reference
