#include "integer_operands.hpp"

#include "broadcast.hpp"

#include <backplane/backend/tensor_handle.hpp>

namespace backplane::reference {

void CenterOperand(const void* data, DataType type, const TensorShape& shape, const void* zero_point,
                   const TensorShape& zero_point_shape, std::int32_t* out) {
  const std::int64_t count = shape.NumElements();
  if (zero_point == nullptr) {
    for (std::int64_t i = 0; i < count; ++i) out[i] = EightBitAt(data, type, i);
    return;
  }
  // Walk `shape` in row-major order with an odometer; `at` follows the zero point's element.
  const std::vector<std::int64_t> strides = BroadcastStrides(zero_point_shape, shape);
  const std::vector<std::int64_t>& dims = shape.Dims();
  std::vector<std::int64_t> index(dims.size(), 0);
  std::int64_t at = 0;
  for (std::int64_t i = 0; i < count; ++i) {
    out[i] = EightBitAt(data, type, i) - EightBitAt(zero_point, type, at);
    for (std::size_t d = dims.size(); d-- > 0;) {
      at += strides[d];
      if (++index[d] < dims[d]) break;
      at -= strides[d] * dims[d];
      index[d] = 0;
    }
  }
}

IntegerOperandsWorkload::IntegerOperandsWorkload(const backend::ILayerView& layer) {
  for (std::size_t i = 0; i < layer.GetNumInputs(); ++i) inputs_.push_back(layer.GetInputInfo(i));
}

std::size_t IntegerOperandsWorkload::GetScratchSize() const {
  return static_cast<std::size_t>(inputs_[0].shape.NumElements() + inputs_[1].shape.NumElements()) *
         sizeof(std::int32_t);
}

std::int32_t* IntegerOperandsWorkload::CenteredInput(const backend::WorkloadArgs& args, std::size_t data) const {
  auto* first = static_cast<std::int32_t*>(args.scratch);
  return data == 0 ? first : first + inputs_[0].shape.NumElements();
}

void IntegerOperandsWorkload::Center(const backend::WorkloadArgs& args, std::size_t data,
                                     const TensorShape& zero_point_shape, std::int32_t* out) const {
  const void* zero_point = HasZeroPoint(data) ? args.inputs[data + 2]->Map() : nullptr;
  CenterOperand(args.inputs[data]->Map(), inputs_[data].type, inputs_[data].shape, zero_point, zero_point_shape, out);
}

}  // namespace backplane::reference
