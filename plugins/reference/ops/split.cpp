// Split along one axis into one output per entry of `sizes`, any element type. Empty `sizes`
// splits into equal parts, one per output (ONNX Split without a `split` input). Around the axis
// the input is [outer, row] bytes; each output takes its block of every row.
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/backend/op_geometry.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

namespace backplane::reference {

namespace {

class SplitWorkload final : public backend::IWorkload {
 public:
  // blocks[i]: bytes of output i per outer index.
  SplitWorkload(std::int64_t outer, std::vector<std::size_t> blocks) : outer_(outer), blocks_(std::move(blocks)) {
    for (const std::size_t block : blocks_) row_ += block;
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    const auto* in = Input<unsigned char>(args, 0);
    std::size_t column = 0;
    for (std::size_t i = 0; i < blocks_.size(); ++i) {
      const std::size_t block = blocks_[i];
      if (block == 0) continue;
      auto* out = Output<unsigned char>(args, i);
      for (std::int64_t o = 0; o < outer_; ++o) {
        std::memcpy(out + static_cast<std::size_t>(o) * block, in + static_cast<std::size_t>(o) * row_ + column, block);
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

std::unique_ptr<backend::IWorkload> CreateSplitWorkload(const backend::ILayerView& layer) {
  backend::SplitGeometry g;
  std::string reason;
  if (!backend::DescribeSplit(layer, g, reason)) throw Exception(ErrorCode::kUnsupported, reason);
  const std::size_t element_size = SizeOf(layer.GetInputInfo(0).type);
  std::vector<std::size_t> blocks;
  for (const std::int64_t part : g.parts) blocks.push_back(static_cast<std::size_t>(part * g.inner) * element_size);
  return std::make_unique<SplitWorkload>(g.outer, std::move(blocks));
}

}  // namespace backplane::reference
