// Pad (ONNX), any element type. pads = [begin of each axis..., end of each axis...]; negative
// pads crop. Output position o of an axis reads input position i = o - begin; outside
// [0, dim) the mode decides: constant writes `value`, edge clamps i, reflect mirrors it
// without repeating the border (a b c -> c b | a b c | b a), repeatedly for wide pads, as
// numpy.pad does. The per-axis mappings are computed once at creation.
#include "broadcast.hpp"
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/element_types.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace backplane::reference {

namespace {

constexpr std::int64_t kFill = -1;  // maps an output position to the constant value

// The input position that output position `o` of an axis reads, or kFill.
std::int64_t SourceIndex(std::int64_t o, std::int64_t begin, std::int64_t dim, PadMode mode) {
  const std::int64_t i = o - begin;
  if (i >= 0 && i < dim) return i;
  switch (mode) {
    case PadMode::kConstant: return kFill;
    case PadMode::kEdge: return i < 0 ? 0 : dim - 1;
    case PadMode::kReflect: {
      if (dim == 1) return 0;
      const std::int64_t period = 2 * (dim - 1);
      const std::int64_t m = ((i % period) + period) % period;
      return m < dim ? m : period - m;
    }
  }
  return kFill;
}

// The bytes of `value` as one element of `type`; false when the element does not hold it exactly
// (a fraction or out of range for an integer type, a value f16 rounds, ...).
bool FillBytes(float value, DataType type, std::vector<unsigned char>& bytes) {
  bytes.assign(SizeOf(type), 0);
  return VisitElementType(type, [&](auto element) {
    using T = decltype(element);
    const T converted = ConvertElement<T>(value);
    const float back = ConvertElement<float>(converted);
    if (!(back == value) && !(std::isnan(back) && std::isnan(value))) return false;
    StoreElement<T>(bytes.data(), 0, converted);
    return true;
  });
}

class PadWorkload final : public backend::IWorkload {
 public:
  // `last_begin`: the begin pad of the last axis.
  PadWorkload(const TensorShape& in, TensorShape out, std::vector<std::vector<std::int64_t>> sources,
              std::vector<unsigned char> fill, std::int64_t last_begin)
      : in_strides_(DenseStrides(in)), out_(std::move(out)), sources_(std::move(sources)), fill_(std::move(fill)) {
    const std::int64_t width = out_[out_.Rank() - 1];
    run_begin_ = std::max<std::int64_t>(0, last_begin);
    run_end_ = std::max(run_begin_, std::min(width, last_begin + in[in.Rank() - 1]));
    run_source_ = run_begin_ - last_begin;
  }

  void Execute(const backend::WorkloadArgs& args) const override {
    const auto* in = Input<unsigned char>(args, 0);
    auto* out = Output<unsigned char>(args, 0);
    const std::size_t size = fill_.size();
    const std::size_t rank = out_.Rank();
    const std::int64_t width = out_[rank - 1];
    if (out_.NumElements() == 0) return;
    const auto& last = sources_[rank - 1];
    std::vector<std::int64_t> index(rank - 1, 0);
    for (;;) {
      // The input row this output row reads, if every outer position maps into the input.
      std::int64_t row = 0;
      bool filled = false;
      for (std::size_t d = 0; d + 1 < rank; ++d) {
        const std::int64_t source = sources_[d][static_cast<std::size_t>(index[d])];
        if (source == kFill) filled = true;
        row += source * in_strides_[d];
      }
      for (std::int64_t j = 0; j < width; ++j) {
        if (!filled && j == run_begin_ && run_end_ > run_begin_) {
          std::memcpy(out, in + static_cast<std::size_t>(row + run_source_) * size,
                      static_cast<std::size_t>(run_end_ - run_begin_) * size);
          out += static_cast<std::size_t>(run_end_ - run_begin_) * size;
          j = run_end_ - 1;
          continue;
        }
        const std::int64_t source = last[static_cast<std::size_t>(j)];
        if (filled || source == kFill) {
          std::memcpy(out, fill_.data(), size);
        } else {
          std::memcpy(out, in + static_cast<std::size_t>(row + source) * size, size);
        }
        out += size;
      }
      std::size_t d = rank - 1;
      for (;;) {
        if (d == 0) return;
        --d;
        if (++index[d] < out_[d]) break;
        index[d] = 0;
      }
    }
  }

 private:
  std::vector<std::int64_t> in_strides_;
  TensorShape out_;
  std::vector<std::vector<std::int64_t>> sources_;  // per axis, per output position
  std::vector<unsigned char> fill_;                // one element holding the constant
  // Output positions [run_begin_, run_end_) of the last axis read consecutive input
  // positions from run_source_ on.
  std::int64_t run_begin_ = 0, run_end_ = 0, run_source_ = 0;
};

}  // namespace

bool IsPadSupported(const backend::ILayerView& layer, std::string& reason) {
  const TensorInfo& in = layer.GetInputInfo(0);
  const TensorShape& out = layer.GetOutputInfo(0).shape;
  const auto& descriptor = DescriptorOf<PadDescriptor>(layer);
  std::vector<unsigned char> fill;
  if (descriptor.mode == PadMode::kConstant && !FillBytes(descriptor.value, in.type, fill)) {
    reason = "the pad value " + std::to_string(descriptor.value) + " cannot be represented exactly as " +
             ToString(in.type) + (in.type == DataType::kFloat16 || in.type == DataType::kBFloat16
                                      ? " (CpuRef pads f16 and bf16 with 0 only)"
                                      : "");
    return false;
  }
  for (std::size_t d = 0; d < in.shape.Rank(); ++d) {
    if (descriptor.mode != PadMode::kConstant && in.shape[d] == 0 && out[d] > 0) {
      reason = "cannot " + std::string(descriptor.mode == PadMode::kEdge ? "edge" : "reflect") + "-pad axis " +
               std::to_string(d) + " of " + ToString(in.shape) + ": it is empty";
      return false;
    }
  }
  return true;
}

std::unique_ptr<backend::IWorkload> CreatePadWorkload(const backend::ILayerView& layer) {
  const TensorInfo& in = layer.GetInputInfo(0);
  const TensorShape& out = layer.GetOutputInfo(0).shape;
  const auto& descriptor = DescriptorOf<PadDescriptor>(layer);
  std::vector<unsigned char> fill;
  if (!FillBytes(descriptor.value, in.type, fill)) fill.assign(SizeOf(in.type), 0);
  const std::size_t rank = in.shape.Rank();
  // A scalar pads to itself; as a [1] tensor it takes the same path as the rest.
  const TensorShape in_shape = rank == 0 ? TensorShape{1} : in.shape;
  const TensorShape out_shape = rank == 0 ? TensorShape{1} : out;
  std::vector<std::vector<std::int64_t>> sources(in_shape.Rank());
  for (std::size_t d = 0; d < in_shape.Rank(); ++d) {
    const std::int64_t begin = rank == 0 ? 0 : descriptor.pads[d];
    for (std::int64_t o = 0; o < out_shape[d]; ++o) {
      sources[d].push_back(SourceIndex(o, begin, in_shape[d], descriptor.mode));
    }
  }
  const std::int64_t last_begin = rank == 0 ? 0 : descriptor.pads[rank - 1];
  return std::make_unique<PadWorkload>(in_shape, out_shape, std::move(sources), std::move(fill), last_begin);
}

}  // namespace backplane::reference
