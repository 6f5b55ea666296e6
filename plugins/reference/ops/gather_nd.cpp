// GatherNd (op set v2, ONNX GatherND): for each batch (the first batch_dims axes, shared by data
// and indices) and each index tuple of q values in the last axis of indices, the slice of data at
// that tuple (negative values count from the end). Copies bytes, so it serves every type. Indices
// are run-time data: all are checked in every run before anything is written.
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace backplane::reference {

namespace {

class GatherNdWorkload final : public backend::IWorkload {
 public:
  // `lengths`: data's extents along the q indexed axes; `strides`: their strides in slices.
  GatherNdWorkload(std::int64_t batches, std::int64_t tuples, std::vector<std::int64_t> lengths,
                   std::vector<std::int64_t> strides, std::int64_t batch_slices, std::size_t slice_bytes,
                   std::string where)
      : batches_(batches), tuples_(tuples), lengths_(std::move(lengths)), strides_(std::move(strides)),
        batch_slices_(batch_slices), slice_bytes_(slice_bytes), where_(std::move(where)) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const auto* indices = Input<std::int64_t>(args, 1);
    const std::size_t q = lengths_.size();
    for (std::int64_t t = 0; t < batches_ * tuples_; ++t) {
      for (std::size_t j = 0; j < q; ++j) {
        CheckIndex("GatherND", indices[t * static_cast<std::int64_t>(q) + static_cast<std::int64_t>(j)],
                   t * static_cast<std::int64_t>(q) + static_cast<std::int64_t>(j), lengths_[j],
                   "axis " + std::to_string(j) + " of the indexed ones of " + where_);
      }
    }
    const auto* data = Input<unsigned char>(args, 0);
    auto* out = Output<unsigned char>(args, 0);
    for (std::int64_t t = 0; t < batches_ * tuples_; ++t) {
      std::int64_t slice = (t / tuples_) * batch_slices_;
      for (std::size_t j = 0; j < q; ++j) {
        std::int64_t index = indices[t * static_cast<std::int64_t>(q) + static_cast<std::int64_t>(j)];
        if (index < 0) index += lengths_[j];
        slice += index * strides_[j];
      }
      std::memcpy(out + static_cast<std::size_t>(t) * slice_bytes_, data + static_cast<std::size_t>(slice) * slice_bytes_,
                  slice_bytes_);
    }
  }

 private:
  std::int64_t batches_, tuples_;
  std::vector<std::int64_t> lengths_, strides_;
  std::int64_t batch_slices_;  // slices per batch
  std::size_t slice_bytes_;
  std::string where_;
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateGatherNdWorkload(const backend::ILayerView& layer) {
  const TensorInfo& data = layer.GetInputInfo(0);
  const std::vector<std::int64_t>& x = data.shape.Dims();
  const std::vector<std::int64_t>& indices = layer.GetInputInfo(1).shape.Dims();
  const auto batch = static_cast<std::size_t>(DescriptorOf<GatherNdDescriptor>(layer).batch_dims);
  const auto q = static_cast<std::size_t>(indices.back());
  std::int64_t batches = 1, tuples = 1, slice = 1;
  for (std::size_t a = 0; a < batch; ++a) batches *= x[a];
  for (std::size_t a = batch; a + 1 < indices.size(); ++a) tuples *= indices[a];
  for (std::size_t a = batch + q; a < x.size(); ++a) slice *= x[a];
  std::vector<std::int64_t> lengths(x.begin() + static_cast<std::ptrdiff_t>(batch),
                                    x.begin() + static_cast<std::ptrdiff_t>(batch + q));
  std::vector<std::int64_t> strides(q, 1);
  for (std::size_t j = q; j-- > 1;) strides[j - 1] = strides[j] * lengths[j];
  const std::int64_t batch_slices = q == 0 ? 1 : strides[0] * lengths[0];
  return std::make_unique<GatherNdWorkload>(batches, tuples, std::move(lengths), std::move(strides), batch_slices,
                                            static_cast<std::size_t>(slice) * SizeOf(data.type),
                                            "data " + ToString(data.shape) + " (layer '" + layer.GetName() + "')");
}

}  // namespace backplane::reference
