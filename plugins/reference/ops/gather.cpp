// Gather (ONNX), data of any element type, indices i32 or i64: output =
// data[:axis] + indices.shape + data[axis+1:], taking along `axis` the slice each index names
// (negative indices count from the end). Indices are run-time data, so they are checked in
// every run, all before anything is written.
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <cstdint>
#include <cstring>
#include <vector>

namespace backplane::reference {

namespace {

class GatherWorkload final : public backend::IWorkload {
 public:
  GatherWorkload(std::int64_t outer, std::int64_t axis_length, std::int64_t indices, std::size_t block,
                 DataType index_type, std::string where)
      : outer_(outer), axis_length_(axis_length), indices_(indices), block_(block), index_type_(index_type),
        where_(std::move(where)) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    if (index_type_ == DataType::kInt32) {
      Run(args, Input<std::int32_t>(args, 1));
    } else {
      Run(args, Input<std::int64_t>(args, 1));
    }
  }

 private:
  template <typename Index>
  void Run(const backend::WorkloadArgs& args, const Index* indices) const {
    for (std::int64_t j = 0; j < indices_; ++j) {
      CheckIndex("Gather", static_cast<std::int64_t>(indices[j]), j, axis_length_, where_);
    }
    if (block_ == 0) return;
    const auto* data = Input<unsigned char>(args, 0);
    auto* out = Output<unsigned char>(args, 0);
    for (std::int64_t o = 0; o < outer_; ++o) {
      const unsigned char* slab = data + static_cast<std::size_t>(o * axis_length_) * block_;
      for (std::int64_t j = 0; j < indices_; ++j) {
        std::int64_t index = static_cast<std::int64_t>(indices[j]);
        if (index < 0) index += axis_length_;
        std::memcpy(out, slab + static_cast<std::size_t>(index) * block_, block_);
        out += block_;
      }
    }
  }

  std::int64_t outer_, axis_length_, indices_;
  std::size_t block_;  // bytes of one slice along the axis
  DataType index_type_;
  std::string where_;  // "axis 0 of data [5,3]", for the error message
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateGatherWorkload(const backend::ILayerView& layer) {
  const TensorInfo& data = layer.GetInputInfo(0);
  const TensorInfo& indices = layer.GetInputInfo(1);
  std::size_t a = 0;
  NormalizeAxis(DescriptorOf<GatherDescriptor>(layer).axis, data.shape.Rank(), a);
  const backend::AxisExtents around = backend::ExtentsAroundAxis(data.shape, a);
  return std::make_unique<GatherWorkload>(around.outer, around.length, indices.shape.NumElements(),
                                          static_cast<std::size_t>(around.inner) * SizeOf(data.type), indices.type,
                                          "axis " + std::to_string(a) + " of data " + ToString(data.shape) +
                                              " (layer '" + layer.GetName() + "')");
}

}  // namespace backplane::reference
