// GatherElements (op set v2, ONNX GatherElements): out[i...] = data[i... with `axis` replaced
// by indices[i...]]; the output has the indices' shape. Copies elements, so one kernel per
// element size serves every type. Indices are run-time data: all are checked in every run
// before anything is written.
#include "broadcast.hpp"
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <cstdint>
#include <string>

namespace backplane::reference {

namespace {

// Elements of type T (an unsigned integer of the data's element size); indices of Index.
template <typename T, typename Index>
class GatherElementsWorkload final : public backend::IWorkload {
 public:
  // `loop` walks (output, indices, data with the axis' stride 0); `axis_stride` is the data's
  // stride along the axis, `axis_length` its extent there.
  GatherElementsWorkload(StridedLoop<3> loop, std::int64_t count, std::int64_t axis_length, std::int64_t axis_stride,
                         std::string where)
      : loop_(std::move(loop)), count_(count), axis_length_(axis_length), axis_stride_(axis_stride),
        where_(std::move(where)) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const Index* indices = Input<Index>(args, 1);
    for (std::int64_t i = 0; i < count_; ++i) {
      CheckIndex("GatherElements", static_cast<std::int64_t>(indices[i]), i, axis_length_, where_);
    }
    const T* data = Input<T>(args, 0);
    T* out = Output<T>(args, 0);
    loop_.ForEachRow([&](const StridedLoop<3>::Offsets& at, std::int64_t n, const StridedLoop<3>::Offsets& step) {
      for (std::int64_t i = 0; i < n; ++i) {
        auto index = static_cast<std::int64_t>(indices[at[1] + i * step[1]]);
        if (index < 0) index += axis_length_;
        out[at[0] + i * step[0]] = data[at[2] + i * step[2] + index * axis_stride_];
      }
    });
  }

 private:
  StridedLoop<3> loop_;
  std::int64_t count_, axis_length_, axis_stride_;
  std::string where_;  // "axis 1 of data [3,4] (layer 'g')", for the error message
};

template <typename T>
using GatherElementsByI32 = GatherElementsWorkload<T, std::int32_t>;
template <typename T>
using GatherElementsByI64 = GatherElementsWorkload<T, std::int64_t>;

}  // namespace

std::unique_ptr<backend::IWorkload> CreateGatherElementsWorkload(const backend::ILayerView& layer) {
  const TensorInfo& data = layer.GetInputInfo(0);
  const TensorInfo& indices = layer.GetInputInfo(1);
  std::size_t axis = 0;
  NormalizeAxis(DescriptorOf<GatherElementsDescriptor>(layer).axis, data.shape.Rank(), axis);
  std::vector<std::int64_t> data_strides = DenseStrides(data.shape);
  const std::int64_t axis_stride = data_strides[axis];
  data_strides[axis] = 0;  // the index picks the position along the axis
  const std::vector<std::int64_t> index_strides = DenseStrides(indices.shape);
  StridedLoop<3> loop(indices.shape.Dims(), {index_strides, index_strides, data_strides});
  const std::int64_t count = indices.shape.NumElements();
  const std::int64_t length = data.shape.Dims()[axis];
  std::string where = "axis " + std::to_string(axis) + " of data " + ToString(data.shape) + " (layer '" +
                      layer.GetName() + "')";
  if (indices.type == DataType::kInt32) {
    return MakeForElementSize<GatherElementsByI32>(SizeOf(data.type), std::move(loop), count, length, axis_stride,
                                                   std::move(where));
  }
  return MakeForElementSize<GatherElementsByI64>(SizeOf(data.type), std::move(loop), count, length, axis_stride,
                                                 std::move(where));
}

}  // namespace backplane::reference
