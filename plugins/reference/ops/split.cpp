// Split along one axis into one output per entry of `sizes`, any element type. Empty `sizes`
// splits into equal parts, one per output (ONNX Split without a `split` input). Around the axis
// the input is [outer, row] bytes; each output takes its block of every row.
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>

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

// The length of every part along the axis; false with a reason when `sizes` does not fit.
bool PartSizes(const backend::ILayerView& layer, std::size_t axis, std::vector<std::int64_t>& parts,
               std::string& reason) {
  const auto& sizes = DescriptorOf<SplitDescriptor>(layer).sizes;
  const TensorShape& in = layer.GetInputInfo(0).shape;
  const std::size_t outputs = layer.GetNumOutputs();
  const std::int64_t length = in[axis];
  if (sizes.empty()) {
    if (length % static_cast<std::int64_t>(outputs) != 0) {
      reason = "Split without sizes cannot divide axis " + std::to_string(axis) + " of length " +
               std::to_string(length) + " (input " + ToString(in) + ") into " + std::to_string(outputs) +
               " equal parts";
      return false;
    }
    parts.assign(outputs, length / static_cast<std::int64_t>(outputs));
    return true;
  }
  if (sizes.size() != outputs) {
    reason = "Split has " + std::to_string(sizes.size()) + " sizes " + ToString(TensorShape(sizes)) + " but " +
             std::to_string(outputs) + " outputs";
    return false;
  }
  std::int64_t total = 0;
  for (const std::int64_t size : sizes) {
    if (size < 0) {
      reason = "Split sizes " + ToString(TensorShape(sizes)) + " contain the negative size " + std::to_string(size);
      return false;
    }
    total += size;
  }
  if (total != length) {
    reason = "Split sizes " + ToString(TensorShape(sizes)) + " sum to " + std::to_string(total) + ", axis " +
             std::to_string(axis) + " of input " + ToString(in) + " has length " + std::to_string(length);
    return false;
  }
  parts = sizes;
  return true;
}

}  // namespace

bool IsSplitSupported(const backend::ILayerView& layer, std::string& reason) {
  if (layer.GetNumOutputs() == 0) {
    reason = "Split has at least 1 output, layer '" + layer.GetName() + "' has none";
    return false;
  }
  if (!HasArity(layer, 1, 1, layer.GetNumOutputs(), reason)) return false;
  const TensorInfo& in = layer.GetInputInfo(0);
  if (SizeOf(in.type) == 0) {
    reason = "Split input has an unknown data type (" + std::to_string(static_cast<std::uint32_t>(in.type)) + ")";
    return false;
  }
  const std::int32_t axis = DescriptorOf<SplitDescriptor>(layer).axis;
  std::size_t a = 0;
  if (!NormalizeAxis(axis, in.shape.Rank(), a)) {
    reason = "Split axis " + std::to_string(axis) + " is out of range for input " + ToString(in.shape) +
             " of rank " + std::to_string(in.shape.Rank());
    return false;
  }
  std::vector<std::int64_t> parts;
  if (!PartSizes(layer, a, parts, reason)) return false;
  for (std::size_t i = 0; i < layer.GetNumOutputs(); ++i) {
    const TensorInfo& out = layer.GetOutputInfo(i);
    if (out.type != in.type) {
      reason = "Split output " + std::to_string(i) + " is " + ToString(out.type) + ", the input is " +
               ToString(in.type);
      return false;
    }
    std::vector<std::int64_t> expected = in.shape.Dims();
    expected[a] = parts[i];
    if (out.shape != TensorShape(expected)) {
      reason = "Split output " + std::to_string(i) + " " + ToString(out.shape) + " is not " +
               ToString(TensorShape(expected)) + ", part " + std::to_string(i) + " of " + ToString(in.shape) +
               " along axis " + std::to_string(axis);
      return false;
    }
  }
  return true;
}

std::unique_ptr<backend::IWorkload> CreateSplitWorkload(const backend::ILayerView& layer) {
  const TensorInfo& in = layer.GetInputInfo(0);
  std::size_t a = 0;
  NormalizeAxis(DescriptorOf<SplitDescriptor>(layer).axis, in.shape.Rank(), a);
  std::int64_t outer = 1, inner = 1;
  for (std::size_t d = 0; d < a; ++d) outer *= in.shape[d];
  for (std::size_t d = a + 1; d < in.shape.Rank(); ++d) inner *= in.shape[d];
  std::vector<std::size_t> blocks;
  for (std::size_t i = 0; i < layer.GetNumOutputs(); ++i) {
    blocks.push_back(static_cast<std::size_t>(layer.GetOutputInfo(i).shape[a] * inner) * SizeOf(in.type));
  }
  return std::make_unique<SplitWorkload>(outer, std::move(blocks));
}

}  // namespace backplane::reference
