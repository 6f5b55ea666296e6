// Cast between any two element types, by the SDK's one conversion rule (ConvertElement,
// backplane/element_types.hpp: numpy's astype where numpy defines it; floating point to an
// integer saturates and NaN becomes 0 where it does not), as the importer folds constants.
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/element_types.hpp>

#include <cstdint>
#include <cstring>

namespace backplane::reference {

namespace {

template <typename From, typename To>
class CastWorkload final : public backend::IWorkload {
 public:
  explicit CastWorkload(std::int64_t count) : count_(static_cast<std::size_t>(count)) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const void* in = Input<void>(args, 0);
    void* out = Output<void>(args, 0);
    for (std::size_t i = 0; i < count_; ++i) StoreElement<To>(out, i, ConvertElement<To>(LoadElement<From>(in, i)));
  }

 private:
  std::size_t count_;
};

class CopyWorkload final : public backend::IWorkload {
 public:
  explicit CopyWorkload(std::size_t bytes) : bytes_(bytes) {}
  void Execute(const backend::WorkloadArgs& args) const override {
    const void* in = Input<void>(args, 0);
    void* out = Output<void>(args, 0);
    if (in != out && bytes_ > 0) std::memcpy(out, in, bytes_);
  }

 private:
  std::size_t bytes_;
};

}  // namespace

std::unique_ptr<backend::IWorkload> CreateCastWorkload(const backend::ILayerView& layer) {
  const TensorInfo& in = layer.GetInputInfo(0);
  const DataType to = DescriptorOf<CastDescriptor>(layer).to;
  const std::int64_t count = in.shape.NumElements();
  if (in.type == to && to != DataType::kBool) return std::make_unique<CopyWorkload>(in.NumBytes());
  return VisitElementType(in.type, [&](auto from) {
    return VisitElementType(to, [&](auto target) -> std::unique_ptr<backend::IWorkload> {
      return std::make_unique<CastWorkload<decltype(from), decltype(target)>>(count);
    });
  });
}

}  // namespace backplane::reference
