// A tensor whose value the importer knows: an initializer, a Constant node's value, or the
// result of folding a shape computation.
#pragma once

#include "external_data.hpp"

#include <backplane/types.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace onnx {
class TensorProto;
}

namespace backplane::onnx {

// Immutable value type; copies share the bytes. Bytes are little-endian and dense, as
// Network::AddConstant takes them (bool: one byte per element, 0 or 1).
class ConstantTensor {
 public:
  // `bytes` must hold info.NumBytes() bytes (checked: Exception kInternal otherwise).
  ConstantTensor(TensorInfo info, std::shared_ptr<const std::vector<std::uint8_t>> bytes);

  // Values converted to `type` (an integer type or bool: exact; f32/f16: rounded).
  static ConstantTensor FromInt64(const TensorShape& shape, const std::vector<std::int64_t>& values,
                                  DataType type = DataType::kInt64);
  static ConstantTensor FromDouble(const TensorShape& shape, const std::vector<double>& values,
                                   DataType type = DataType::kFloat32);

  const TensorInfo& info() const { return info_; }
  const TensorShape& shape() const { return info_.shape; }
  DataType type() const { return info_.type; }
  std::size_t NumElements() const { return static_cast<std::size_t>(info_.shape.NumElements()); }
  const std::shared_ptr<const std::vector<std::uint8_t>>& bytes() const { return bytes_; }
  const std::uint8_t* data() const { return bytes_->data(); }

  bool IsFloatingPoint() const;
  // The elements as int64 (integer and bool types exactly; floating point truncated).
  std::vector<std::int64_t> ToInt64() const;
  // The elements as double (f16 and bf16 widened).
  std::vector<double> AsDoubles() const;
  // The same bytes under another shape of the same element count.
  ConstantTensor Reshaped(const TensorShape& shape) const;

 private:
  TensorInfo info_;
  std::shared_ptr<const std::vector<std::uint8_t>> bytes_;
};

// The DataType of an ONNX TensorProto.DataType value, if op set v1 has it (f32, f16, bf16,
// i32, i64, bool).
bool DataTypeFromOnnx(int onnx_type, DataType& type);
// The TensorProto data type of `type` (its inverse).
int OnnxTypeOf(DataType type);
// "FLOAT", "INT64", "DOUBLE", ... for messages.
std::string OnnxTypeName(int onnx_type);

// The type and shape of an initializer or a Constant node's tensor, checked: a supported data
// type, not segmented, dims whose byte size neither overflows nor exceeds `max_bytes`. Throws
// Exception: kUnsupported for segments and unsupported types, kInvalidArgument for bad dims;
// messages name the tensor, not the file (the caller adds it). Reads no data.
TensorInfo TensorProtoInfo(const ::onnx::TensorProto& tensor, std::uint64_t max_bytes);

// Reads an initializer or a Constant node's tensor: TensorProtoInfo's checks, then the data,
// checked against the dims before anything is allocated (no tensor above `max_bytes` is made).
// Data stored externally (data_location EXTERNAL) is read through `external` (see
// ExternalDataFolder::Read for its rules and errors). Throws Exception as TensorProtoInfo, and
// kInvalidArgument for data inconsistent with the dims.
ConstantTensor ReadTensorProto(const ::onnx::TensorProto& tensor, std::uint64_t max_bytes,
                               const ExternalDataFolder& external);

}  // namespace backplane::onnx
