// Reshape and Flatten, any element type: the bytes are unchanged, so the workload copies them
// (nothing when the runtime gave input and output the same memory). Support checks that the
// output shape the runtime inferred is the one the descriptor asks for.
#include "reference_ops.hpp"
#include "tensor_access.hpp"

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

// Same element type and count, a known element type.
bool SameData(const backend::ILayerView& layer, std::string& reason) {
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
  if (in.shape.NumElements() != out.shape.NumElements()) {
    reason = op + " output " + ToString(out.shape) + " has " + std::to_string(out.shape.NumElements()) +
             " elements, input " + ToString(in.shape) + " has " + std::to_string(in.shape.NumElements());
    return false;
  }
  return true;
}

}  // namespace

bool IsReshapeSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!HasArity(layer, 1, 1, 1, reason) || !SameData(layer, reason)) return false;
  const auto& requested = DescriptorOf<ReshapeDescriptor>(layer).shape;
  const TensorShape& in = layer.GetInputInfo(0).shape;
  const TensorShape& out = layer.GetOutputInfo(0).shape;
  const std::string requested_text = ToString(TensorShape(requested));
  if (requested.size() != out.Rank()) {
    reason = "Reshape output " + ToString(out) + " does not have the rank of the requested shape " + requested_text;
    return false;
  }
  std::size_t inferred = 0;
  for (std::size_t i = 0; i < requested.size(); ++i) {
    const std::int64_t want = requested[i];
    bool matches = want == out[i];
    if (want == 0) matches = i < in.Rank() && out[i] == in[i];
    if (want == -1) matches = ++inferred == 1;
    if (want < -1) matches = false;
    if (!matches) {
      reason = "Reshape output " + ToString(out) + " does not match the requested shape " + requested_text +
               " of input " + ToString(in) + " at dimension " + std::to_string(i);
      return false;
    }
  }
  return true;
}

std::unique_ptr<backend::IWorkload> CreateReshapeWorkload(const backend::ILayerView& layer) {
  return std::make_unique<CopyWorkload>(layer.GetInputInfo(0).NumBytes());
}

bool IsFlattenSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!HasArity(layer, 1, 1, 1, reason) || !SameData(layer, reason)) return false;
  const std::int32_t axis = DescriptorOf<FlattenDescriptor>(layer).axis;
  const TensorShape& in = layer.GetInputInfo(0).shape;
  // ONNX allows axis == rank (everything in the first dimension).
  const auto rank = static_cast<std::int64_t>(in.Rank());
  if (axis < -rank || axis > rank) {
    reason = "Flatten axis " + std::to_string(axis) + " is out of range [-" + std::to_string(in.Rank()) + ", " +
             std::to_string(in.Rank()) + "] for input " + ToString(in);
    return false;
  }
  const auto a = static_cast<std::size_t>(axis < 0 ? axis + rank : axis);
  std::int64_t outer = 1, inner = 1;
  for (std::size_t d = 0; d < in.Rank(); ++d) (d < a ? outer : inner) *= in[d];
  const TensorShape expected{outer, inner};
  if (layer.GetOutputInfo(0).shape != expected) {
    reason = "Flatten output " + ToString(layer.GetOutputInfo(0).shape) + " is not " + ToString(expected) +
             ", input " + ToString(in) + " flattened at axis " + std::to_string(axis);
    return false;
  }
  return true;
}

std::unique_ptr<backend::IWorkload> CreateFlattenWorkload(const backend::ILayerView& layer) {
  return std::make_unique<CopyWorkload>(layer.GetInputInfo(0).NumBytes());
}

}  // namespace backplane::reference
