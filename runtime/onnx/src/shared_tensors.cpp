#include "shared_tensors.hpp"

namespace backplane::onnx {

ConstantTensor SharedTensors::Get(const ::onnx::TensorProto& proto, const std::function<ConstantTensor()>& read) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    const auto found = tensors_.find(&proto);
    if (found != tensors_.end()) return found->second;
  }
  ConstantTensor tensor = read();  // outside the lock: two imports may read one tensor at once
  std::lock_guard<std::mutex> lock(mutex_);
  return tensors_.emplace(&proto, std::move(tensor)).first->second;  // the first one read wins
}

}  // namespace backplane::onnx
