// The tensors of one parsed model (initializers, Constant nodes' values), read once and shared
// by every import of that model: onnx::Session's specializations hold a model's weights once,
// however many input shapes are loaded (a network's constants share their bytes, and the
// runtime's compiled networks point at them).
#pragma once

#include "constant_tensor.hpp"

#include <functional>
#include <map>
#include <mutex>

namespace onnx {
class TensorProto;
}

namespace backplane::onnx {

// Keyed by the TensorProto's address: the model must outlive this object and not change.
// Thread-safe: imports of different shapes read at once. Holds at most every tensor of the
// model once (a tensor whose read throws is not kept).
class SharedTensors {
 public:
  // `proto` as `read` gives it the first time; the same bytes every later time.
  ConstantTensor Get(const ::onnx::TensorProto& proto, const std::function<ConstantTensor()>& read);

 private:
  std::mutex mutex_;
  std::map<const ::onnx::TensorProto*, ConstantTensor> tensors_;
};

}  // namespace backplane::onnx
