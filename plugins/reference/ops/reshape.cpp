// Reshape and Flatten, any element type: the bytes are unchanged, so the workload copies them
// (nothing when the runtime gave input and output the same memory). Support checks that the
// output shape the runtime inferred is the one the descriptor asks for.
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/backend/op_geometry.hpp>
#include <backplane/descriptors.hpp>

#include <cstring>

namespace backplane::reference {

namespace {

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

// Same element type in and out, a known one (the shapes are the SDK's checks).
bool SameType(const backend::ILayerView& layer, std::string& reason) {
  const std::string op = backend::ToString(layer.GetType());
  const TensorInfo& in = layer.GetInputInfo(0);
  const TensorInfo& out = layer.GetOutputInfo(0);
  if (SizeOf(in.type) == 0) {
    reason = op + " input has an unknown data type (" + std::to_string(static_cast<std::uint32_t>(in.type)) + ")";
    return false;
  }
  if (in.type != out.type) {
    reason = op + " output type " + ToString(out.type) + " differs from input type " + ToString(in.type);
    return false;
  }
  return true;
}

}  // namespace

bool IsReshapeSupported(const backend::ILayerView& layer, std::string& reason) {
  return HasArity(layer, 1, 1, 1, reason) && SameType(layer, reason) && backend::CheckReshape(layer, reason);
}

std::unique_ptr<backend::IWorkload> CreateReshapeWorkload(const backend::ILayerView& layer) {
  return std::make_unique<CopyWorkload>(layer.GetInputInfo(0).NumBytes());
}

bool IsFlattenSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!HasArity(layer, 1, 1, 1, reason) || !SameType(layer, reason)) return false;
  backend::FlattenGeometry geometry;
  return backend::DescribeFlatten(layer, geometry, reason);
}

std::unique_ptr<backend::IWorkload> CreateFlattenWorkload(const backend::ILayerView& layer) {
  return std::make_unique<CopyWorkload>(layer.GetInputInfo(0).NumBytes());
}

}  // namespace backplane::reference
