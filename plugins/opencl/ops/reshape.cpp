// Reshape and Flatten, f32: the bytes do not change, so the workload is one device-side buffer
// copy (none when the runtime gave input and output the same buffer). Support checks that the
// output shape the runtime inferred is the one the descriptor asks for.
#include "op_kernels.hpp"
#include "op_support.hpp"
#include "opencl_workload.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

namespace backplane::opencl {

namespace {

class CopyWorkload final : public OpenClWorkload {
 public:
  CopyWorkload(const backend::ILayerView& layer, OpenClDevice& device)
      : OpenClWorkload(layer, device), bytes_(layer.GetInputInfo(0).NumBytes()) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    EnqueueCopy(device_, In(args, 0), 0, Out(args, 0), 0, bytes_, name_.c_str());
  }

 private:
  std::size_t bytes_;
};

bool SameCount(const backend::ILayerView& layer, std::string& reason) {
  const TensorShape& in = layer.GetInputInfo(0).shape;
  const TensorShape& out = layer.GetOutputInfo(0).shape;
  if (in.NumElements() != out.NumElements()) {
    return Fail(reason, layer, "output " + ToString(out) + " has " + std::to_string(out.NumElements()) +
                                   " elements, input " + ToString(in) + " has " + std::to_string(in.NumElements()));
  }
  return true;
}

}  // namespace

bool IsReshapeSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!HasArity(layer, 1, 1, 1, reason) || !SameCount(layer, reason)) return false;
  const auto& requested = DescriptorOf<ReshapeDescriptor>(layer).shape;
  const TensorShape& in = layer.GetInputInfo(0).shape;
  const TensorShape& out = layer.GetOutputInfo(0).shape;
  const std::string requested_text = ToString(TensorShape(requested));
  if (requested.size() != out.Rank()) {
    return Fail(reason, layer, "output " + ToString(out) + " does not have the rank of the requested shape " +
                                   requested_text);
  }
  std::size_t inferred = 0;
  for (std::size_t i = 0; i < requested.size(); ++i) {
    const std::int64_t want = requested[i];
    bool matches = want == out[i];
    if (want == 0) matches = i < in.Rank() && out[i] == in[i];
    if (want == -1) matches = ++inferred == 1;
    if (want < -1) matches = false;
    if (!matches) {
      return Fail(reason, layer, "output " + ToString(out) + " does not match the requested shape " +
                                     requested_text + " of input " + ToString(in) + " at dimension " +
                                     std::to_string(i));
    }
  }
  return true;
}

std::unique_ptr<backend::IWorkload> CreateReshapeWorkload(const backend::ILayerView& layer, OpenClDevice& device) {
  return std::make_unique<CopyWorkload>(layer, device);
}

bool IsFlattenSupported(const backend::ILayerView& layer, std::string& reason) {
  if (!HasArity(layer, 1, 1, 1, reason) || !SameCount(layer, reason)) return false;
  const std::int32_t axis = DescriptorOf<FlattenDescriptor>(layer).axis;
  const TensorShape& in = layer.GetInputInfo(0).shape;
  const auto rank = static_cast<std::int64_t>(in.Rank());
  if (axis < -rank || axis > rank) {
    return Fail(reason, layer, "axis " + std::to_string(axis) + " is out of range [-" + std::to_string(rank) + ", " +
                                   std::to_string(rank) + "] for input " + ToString(in));
  }
  const auto a = static_cast<std::size_t>(axis < 0 ? axis + rank : axis);
  std::int64_t outer = 1, inner = 1;
  for (std::size_t d = 0; d < in.Rank(); ++d) (d < a ? outer : inner) *= in[d];
  const TensorShape expected{outer, inner};
  if (layer.GetOutputInfo(0).shape != expected) {
    return Fail(reason, layer, "output " + ToString(layer.GetOutputInfo(0).shape) + " is not " + ToString(expected) +
                                   ", input " + ToString(in) + " flattened at axis " + std::to_string(axis));
  }
  return true;
}

std::unique_ptr<backend::IWorkload> CreateFlattenWorkload(const backend::ILayerView& layer, OpenClDevice& device) {
  return std::make_unique<CopyWorkload>(layer, device);
}

}  // namespace backplane::opencl
