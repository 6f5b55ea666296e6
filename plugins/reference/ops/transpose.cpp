// Transpose, any element type: output dimension i is input dimension permutation[i]. The
// output is written in order while the input is read through permuted strides; dimensions
// that stay adjacent in both are merged into single rows.
#include "broadcast.hpp"
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>

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

// The descriptor's permutation, or the reversed axes when it is empty.
std::vector<std::uint32_t> Permutation(const TransposeDescriptor& descriptor, std::size_t rank) {
  if (!descriptor.permutation.empty()) return descriptor.permutation;
  std::vector<std::uint32_t> reversed(rank);
  for (std::size_t i = 0; i < rank; ++i) reversed[i] = static_cast<std::uint32_t>(rank - 1 - i);
  return reversed;
}

std::string ListText(const std::vector<std::uint32_t>& values) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) text += (i ? "," : "") + std::to_string(values[i]);
  return text + "]";
}

}  // namespace

bool IsTransposeSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!HasArity(layer, 1, 1, 1, reason)) return false;
  const TensorInfo& in = layer.GetInputInfo(0);
  const TensorInfo& out = layer.GetOutputInfo(0);
  if (SizeOf(in.type) == 0) {
    reason = "Transpose input has an unknown data type (" + std::to_string(static_cast<std::uint32_t>(in.type)) + ")";
    return false;
  }
  if (in.type != out.type) {
    reason = "Transpose output type " + std::string(ToString(out.type)) + " differs from input type " +
             ToString(in.type);
    return false;
  }
  const auto permutation = Permutation(DescriptorOf<TransposeDescriptor>(layer), in.shape.Rank());
  if (permutation.size() != in.shape.Rank()) {
    reason = "Transpose permutation " + ListText(permutation) + " has " + std::to_string(permutation.size()) +
             " entries, input " + ToString(in.shape) + " has rank " + std::to_string(in.shape.Rank());
    return false;
  }
  std::vector<bool> seen(permutation.size(), false);
  std::vector<std::int64_t> expected;
  for (const std::uint32_t axis : permutation) {
    if (axis >= permutation.size() || seen[axis]) {
      reason = "Transpose permutation " + ListText(permutation) + " is not a permutation of 0.." +
               std::to_string(permutation.size() - 1) + " (axis " + std::to_string(axis) +
               (axis >= permutation.size() ? " is out of range)" : " repeats)");
      return false;
    }
    seen[axis] = true;
    expected.push_back(in.shape[axis]);
  }
  if (out.shape != TensorShape(expected)) {
    reason = "Transpose output " + ToString(out.shape) + " is not " + ToString(TensorShape(expected)) + ", input " +
             ToString(in.shape) + " permuted by " + ListText(permutation);
    return false;
  }
  return true;
}

std::unique_ptr<backend::IWorkload> CreateTransposeWorkload(const backend::ILayerView& layer) {
  const TensorInfo& in = layer.GetInputInfo(0);
  const TensorShape& out = layer.GetOutputInfo(0).shape;
  const auto permutation = Permutation(DescriptorOf<TransposeDescriptor>(layer), in.shape.Rank());
  const auto in_strides = DenseStrides(in.shape);
  std::vector<std::int64_t> read(permutation.size());
  for (std::size_t i = 0; i < permutation.size(); ++i) read[i] = in_strides[permutation[i]];
  return std::make_unique<TransposeWorkload>(StridedLoop<2>(out.Dims(), {DenseStrides(out), read}),
                                             SizeOf(in.type));
}

}  // namespace backplane::reference
