#include "example_workloads.hpp"

#include "example_backend.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <utility>

namespace example {

using namespace backplane;
using namespace backplane::backend;

namespace {

// Maps a tensor handle for the duration of a scope.
class Mapped {
 public:
  explicit Mapped(ITensorHandle* handle) : handle_(handle), data_(static_cast<float*>(handle->Map())) {}
  ~Mapped() { handle_->Unmap(); }
  Mapped(const Mapped&) = delete;
  Mapped& operator=(const Mapped&) = delete;
  float* data() const { return data_; }

 private:
  ITensorHandle* handle_;
  float* data_;
};

enum class Op { kAdd, kMul, kRelu };

class ElementwiseWorkload final : public IWorkload {
 public:
  ElementwiseWorkload(Op op, std::string layer, std::size_t count)
      : op_(op), layer_(std::move(layer)), count_(count) {}

  void Execute(const WorkloadArgs& args) const override {
    const std::size_t inputs = op_ == Op::kRelu ? 1 : 2;
    if (args.inputs.size() != inputs || args.outputs.size() != 1) {
      throw Exception(ErrorCode::kInvalidArgument,
                      "CpuExample layer '" + layer_ + "': wrong number of tensors bound");
    }
    Mapped out(args.outputs[0]);
    Mapped a(args.inputs[0]);
    if (op_ == Op::kRelu) {
      for (std::size_t i = 0; i < count_; ++i) out.data()[i] = std::max(a.data()[i], 0.0f);
      return;
    }
    Mapped b(args.inputs[1]);
    if (op_ == Op::kAdd) {
      for (std::size_t i = 0; i < count_; ++i) out.data()[i] = a.data()[i] + b.data()[i];
    } else {
      for (std::size_t i = 0; i < count_; ++i) out.data()[i] = a.data()[i] * b.data()[i];
    }
  }

 private:
  Op op_;
  std::string layer_;
  std::size_t count_;
};

}  // namespace

std::unique_ptr<IWorkload> ExampleWorkloadFactory::CreateWorkload(const ILayerView& layer) {
  return Ops().SupportingOrThrow(layer).create(layer);
}

std::unique_ptr<IWorkload> CreateElementwiseWorkload(const ILayerView& layer) {
  Op op = Op::kRelu;
  if (layer.GetType() == LayerType::kElementwiseBinary) {
    const auto& descriptor = static_cast<const ElementwiseBinaryDescriptor&>(*layer.GetDescriptor());
    op = descriptor.operation == BinaryOperation::kAdd ? Op::kAdd : Op::kMul;
  }
  const auto count = static_cast<std::size_t>(layer.GetOutputInfo(0).shape.NumElements());
  return std::make_unique<ElementwiseWorkload>(op, layer.GetName(), count);
}

}  // namespace example
