// The integer ops' (MatMulInteger, ConvolutionInteger) shared arithmetic: i8 / u8 operands
// widened to i32 with their zero point subtracted, and the exact i32 accumulation ONNX asks for.
#pragma once

#include <backplane/backend/layer.hpp>
#include <backplane/backend/workload.hpp>
#include <backplane/types.hpp>

#include <cstdint>
#include <vector>

namespace backplane::reference {

// Element i of an i8 or u8 tensor of `type`, widened.
inline std::int32_t EightBitAt(const void* data, DataType type, std::int64_t i) {
  if (type == DataType::kInt8) return static_cast<const std::int8_t*>(data)[i];
  return static_cast<const std::uint8_t*>(data)[i];
}

// Writes data - zero_point into out (data's element count), widened to i32: `data` is an i8 or
// u8 tensor of `shape`, `zero_point` one of its type whose shape broadcasts to `shape` (null:
// no zero point, 0). Thread-safe; reads only its arguments.
void CenterOperand(const void* data, DataType type, const TensorShape& shape, const void* zero_point,
                   const TensorShape& zero_point_shape, std::int32_t* out);

// What MatMulInteger's and ConvolutionInteger's workloads share: the layer's input infos (data
// inputs 0 and 1, their zero points 2 and 3 when present) and scratch for both data inputs
// widened to i32. Immutable after construction.
class IntegerOperandsWorkload : public backend::IWorkload {
 public:
  explicit IntegerOperandsWorkload(const backend::ILayerView& layer);
  std::size_t GetScratchSize() const override;

 protected:
  // Input `data` minus its zero point (input data + 2, when the layer has it, its shape read as
  // `zero_point_shape`: one that broadcasts to the data's) into `out` (CenterOperand).
  void Center(const backend::WorkloadArgs& args, std::size_t data, const TensorShape& zero_point_shape,
              std::int32_t* out) const;
  // The scratch split in two: input 0 centered, then input 1 centered.
  std::int32_t* CenteredInput(const backend::WorkloadArgs& args, std::size_t data) const;
  bool HasZeroPoint(std::size_t data) const { return inputs_.size() > data + 2; }

  std::vector<TensorInfo> inputs_;
};

// A sum of i32 products that wraps at 32 bits (ONNX: "accumulation may overflow if and only if
// in 32 bits") without signed overflow: the terms add modulo 2^32.
class WrappingSum {
 public:
  void Add(std::int32_t a, std::int32_t b) {
    // |a|, |b| <= 255 (centered 8-bit values): the product fits i32.
    sum_ += static_cast<std::uint32_t>(a * b);
  }
  std::int32_t Value() const {
    return sum_ < 0x80000000u ? static_cast<std::int32_t>(sum_)
                              : -static_cast<std::int32_t>(~sum_) - 1;  // two's complement, no overflow
  }

 private:
  std::uint32_t sum_ = 0;
};

}  // namespace backplane::reference
