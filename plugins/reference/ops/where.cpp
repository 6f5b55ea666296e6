// Where (op set v2): y = cond ? x : y_else elementwise, numpy broadcasting of all three. Copies
// elements, so one kernel per element size serves every type the op schema allows.
#include "broadcast.hpp"
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>

#include <cstdint>

namespace backplane::reference {

namespace {

// Elements of type T (an unsigned integer of the tensors' element size).
template <typename T>
class WhereWorkload final : public backend::IWorkload {
 public:
  explicit WhereWorkload(StridedLoop<4> loop) : loop_(std::move(loop)) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const auto* cond = Input<std::uint8_t>(args, 0);
    const T* x = Input<T>(args, 1);
    const T* y = Input<T>(args, 2);
    T* out = Output<T>(args, 0);
    loop_.ForEachRow([&](const StridedLoop<4>::Offsets& at, std::int64_t n, const StridedLoop<4>::Offsets& step) {
      for (std::int64_t i = 0; i < n; ++i) {
        out[at[0] + i * step[0]] = cond[at[1] + i * step[1]] != 0 ? x[at[2] + i * step[2]] : y[at[3] + i * step[3]];
      }
    });
  }

 private:
  StridedLoop<4> loop_;
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateWhereWorkload(const backend::ILayerView& layer) {
  const TensorInfo& out = layer.GetOutputInfo(0);
  StridedLoop<4> loop(out.shape.Dims(), {DenseStrides(out.shape), BroadcastStrides(layer.GetInputInfo(0).shape, out.shape),
                                         BroadcastStrides(layer.GetInputInfo(1).shape, out.shape),
                                         BroadcastStrides(layer.GetInputInfo(2).shape, out.shape)});
  return MakeForElementSize<WhereWorkload>(SizeOf(out.type), std::move(loop));
}

}  // namespace backplane::reference
