// Concat of N inputs along one axis, any element type. Around the axis each input is
// [outer, block] bytes; the output interleaves the inputs' blocks for every outer index.
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

namespace backplane::reference {

namespace {

class ConcatWorkload final : public backend::IWorkload {
 public:
  // blocks[i]: bytes of input i per outer index.
  ConcatWorkload(std::int64_t outer, std::vector<std::size_t> blocks) : outer_(outer), blocks_(std::move(blocks)) {
    for (const std::size_t block : blocks_) row_ += block;
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    auto* out = Output<unsigned char>(args, 0);
    std::size_t column = 0;
    for (std::size_t i = 0; i < blocks_.size(); ++i) {
      const std::size_t block = blocks_[i];
      if (block == 0) continue;
      const auto* in = Input<unsigned char>(args, i);
      for (std::int64_t o = 0; o < outer_; ++o) {
        std::memcpy(out + static_cast<std::size_t>(o) * row_ + column, in + static_cast<std::size_t>(o) * block, block);
      }
      column += block;
    }
  }

 private:
  std::int64_t outer_;
  std::vector<std::size_t> blocks_;
  std::size_t row_ = 0;
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateConcatWorkload(const backend::ILayerView& layer) {
  const TensorInfo& out = layer.GetOutputInfo(0);
  std::size_t a = 0;
  NormalizeAxis(DescriptorOf<ConcatDescriptor>(layer).axis, out.shape.Rank(), a);
  const backend::AxisExtents around = backend::ExtentsAroundAxis(out.shape, a);
  std::vector<std::size_t> blocks;
  for (std::size_t i = 0; i < layer.GetNumInputs(); ++i) {
    blocks.push_back(static_cast<std::size_t>(layer.GetInputInfo(i).shape[a] * around.inner) * SizeOf(out.type));
  }
  return std::make_unique<ConcatWorkload>(around.outer, std::move(blocks));
}

}  // namespace backplane::reference
