#include "constant_tensor.hpp"

#include <backplane/element_types.hpp>
#include <backplane/checked_size.hpp>
#include <backplane/exception.hpp>

#include <onnx/onnx_pb.h>

#include <cmath>
#include <cstring>

namespace backplane::onnx {

namespace {

using ::onnx::TensorProto;

double LoadDouble(DataType type, const std::uint8_t* data, std::size_t i) {
  return VisitElementType(type, [&](auto element) {
    return ConvertElement<double>(LoadElement<decltype(element)>(data, i));
  });
}

void StoreDouble(DataType type, std::uint8_t* data, std::size_t i, double value) {
  VisitElementType(type, [&](auto element) {
    using T = decltype(element);
    StoreElement<T>(data, i, ConvertElement<T>(value));
  });
}

[[noreturn]] void Invalid(const std::string& message) { throw Exception(ErrorCode::kInvalidArgument, message); }

// Element i of a type stored in int32_data: its low bits (f16 and bf16: the 16 bits).
void StoreNarrow(DataType type, std::uint8_t* data, std::size_t i, std::int32_t value) {
  if (SizeOf(type) == 1) {
    data[i] = static_cast<std::uint8_t>(value);
  } else {
    StoreElement(data, i, static_cast<std::uint16_t>(value));
  }
}

}  // namespace

ConstantTensor::ConstantTensor(TensorInfo info, std::shared_ptr<const std::vector<std::uint8_t>> bytes)
    : info_(std::move(info)), bytes_(std::move(bytes)) {
  const auto expected = TryNumBytes(info_.shape.Dims(), info_.type);
  if (!bytes_ || !expected || bytes_->size() != *expected) {
    throw Exception(ErrorCode::kInternal, "a constant of " + std::string(ToString(info_.type)) + " " +
                                              ToString(info_.shape) + " got " +
                                              std::to_string(bytes_ ? bytes_->size() : 0) + " bytes");
  }
}

ConstantTensor ConstantTensor::FromInt64(const TensorShape& shape, const std::vector<std::int64_t>& values,
                                         DataType type) {
  auto bytes = std::make_shared<std::vector<std::uint8_t>>(values.size() * SizeOf(type));
  VisitElementType(type, [&](auto element) {
    using T = decltype(element);
    for (std::size_t i = 0; i < values.size(); ++i) StoreElement<T>(bytes->data(), i, ConvertElement<T>(values[i]));
  });
  return ConstantTensor({shape, type}, std::move(bytes));
}

ConstantTensor ConstantTensor::FromDouble(const TensorShape& shape, const std::vector<double>& values,
                                          DataType type) {
  auto bytes = std::make_shared<std::vector<std::uint8_t>>(values.size() * SizeOf(type));
  for (std::size_t i = 0; i < values.size(); ++i) StoreDouble(type, bytes->data(), i, values[i]);
  return ConstantTensor({shape, type}, std::move(bytes));
}

bool ConstantTensor::IsFloatingPoint() const {
  return type() == DataType::kFloat32 || type() == DataType::kFloat16 || type() == DataType::kBFloat16 ||
         type() == DataType::kFloat64;
}

std::vector<std::int64_t> ConstantTensor::ToInt64() const {
  std::vector<std::int64_t> values(NumElements());
  VisitElementType(type(), [&](auto element) {
    using T = decltype(element);
    for (std::size_t i = 0; i < values.size(); ++i) {
      values[i] = ConvertElement<std::int64_t>(LoadElement<T>(data(), i));
    }
  });
  return values;
}

std::vector<double> ConstantTensor::AsDoubles() const {
  std::vector<double> values(NumElements());
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = LoadDouble(type(), data(), i);
  return values;
}

ConstantTensor ConstantTensor::Reshaped(const TensorShape& shape) const {
  return ConstantTensor({shape, type()}, bytes_);
}

namespace {
// The TensorProto data types Backplane reads, with their DataType.
struct OnnxType {
  int onnx;
  DataType type;
};
constexpr OnnxType kOnnxTypes[] = {
    {TensorProto::FLOAT, DataType::kFloat32},   {TensorProto::FLOAT16, DataType::kFloat16},
    {TensorProto::BFLOAT16, DataType::kBFloat16}, {TensorProto::INT32, DataType::kInt32},
    {TensorProto::INT64, DataType::kInt64},     {TensorProto::BOOL, DataType::kBool},
    {TensorProto::INT8, DataType::kInt8},       {TensorProto::UINT8, DataType::kUInt8},
    {TensorProto::INT16, DataType::kInt16},     {TensorProto::UINT16, DataType::kUInt16},
    {TensorProto::UINT32, DataType::kUInt32},   {TensorProto::UINT64, DataType::kUInt64},
    {TensorProto::DOUBLE, DataType::kFloat64},
};
}  // namespace

bool DataTypeFromOnnx(int onnx_type, DataType& type) {
  for (const OnnxType& entry : kOnnxTypes) {
    if (entry.onnx == onnx_type) {
      type = entry.type;
      return true;
    }
  }
  return false;
}

int OnnxTypeOf(DataType type) {
  for (const OnnxType& entry : kOnnxTypes) {
    if (entry.type == type) return entry.onnx;
  }
  return TensorProto::UNDEFINED;
}

std::string OnnxTypeName(int onnx_type) {
  if (::onnx::TensorProto_DataType_IsValid(onnx_type)) {
    return ::onnx::TensorProto_DataType_Name(static_cast<::onnx::TensorProto_DataType>(onnx_type));
  }
  return "data type " + std::to_string(onnx_type);
}

TensorInfo TensorProtoInfo(const TensorProto& tensor, std::uint64_t max_bytes) {
  if (tensor.has_segment()) throw Exception(ErrorCode::kUnsupported, "segmented tensors are not supported");
  DataType type;
  if (!DataTypeFromOnnx(tensor.data_type(), type)) {
    throw Exception(ErrorCode::kUnsupported, "data type " + OnnxTypeName(tensor.data_type()) +
                                                 " is not supported (the numeric types and BOOL are)");
  }
  const std::vector<std::int64_t> dims(tensor.dims().begin(), tensor.dims().end());
  const TensorShape shape(dims);
  const auto bytes = TryNumBytes(dims, type);
  if (!bytes) Invalid("dims " + ToString(shape) + " are negative or overflow");
  if (*bytes > max_bytes) {
    Invalid("dims " + ToString(shape) + " make " + std::to_string(*bytes) + " bytes, more than the limit of " +
            std::to_string(max_bytes) + " (ImportOptions::max_model_bytes)");
  }
  return {shape, type};
}

ConstantTensor ReadTensorProto(const TensorProto& tensor, std::uint64_t max_bytes, const ExternalDataFolder& external) {
  const TensorInfo info = TensorProtoInfo(tensor, max_bytes);
  const DataType type = info.type;
  const TensorShape& shape = info.shape;
  const std::size_t n = static_cast<std::size_t>(shape.NumElements());
  const std::uint64_t bytes = n * SizeOf(type);

  // Raw little-endian bytes, in the model or in a file beside it.
  auto raw = [&](std::vector<std::uint8_t> data) {
    if (type == DataType::kBool) {
      for (auto& b : data) b = b != 0;
    }
    return ConstantTensor(info, std::make_shared<const std::vector<std::uint8_t>>(std::move(data)));
  };
  if (tensor.data_location() == TensorProto::EXTERNAL) return raw(external.Read(tensor, bytes));
  if (tensor.has_raw_data()) {
    if (tensor.raw_data().size() != bytes) {
      Invalid("raw_data has " + std::to_string(tensor.raw_data().size()) + " bytes, but " + ToString(type) + " " +
              ToString(shape) + " needs " + std::to_string(bytes));
    }
    const auto* begin = reinterpret_cast<const std::uint8_t*>(tensor.raw_data().data());
    return raw(std::vector<std::uint8_t>(begin, begin + bytes));
  }

  auto check_count = [&](int stored, const char* field) {
    if (static_cast<std::uint64_t>(stored) != n) {
      Invalid(std::string(field) + " has " + std::to_string(stored) + " elements, but " + ToString(shape) +
              " needs " + std::to_string(n));
    }
  };
  auto data = std::make_shared<std::vector<std::uint8_t>>(static_cast<std::size_t>(bytes));
  switch (type) {
    case DataType::kFloat32:
      check_count(tensor.float_data_size(), "float_data");
      if (n) std::memcpy(data->data(), tensor.float_data().data(), bytes);
      break;
    case DataType::kInt64:
      check_count(tensor.int64_data_size(), "int64_data");
      if (n) std::memcpy(data->data(), tensor.int64_data().data(), bytes);
      break;
    case DataType::kInt32:
      check_count(tensor.int32_data_size(), "int32_data");
      if (n) std::memcpy(data->data(), tensor.int32_data().data(), bytes);
      break;
    case DataType::kBool:
      check_count(tensor.int32_data_size(), "int32_data");
      for (std::size_t i = 0; i < n; ++i) (*data)[i] = tensor.int32_data(static_cast<int>(i)) != 0;
      break;
    case DataType::kFloat16:
    case DataType::kBFloat16:  // the 16 bits of each value in int32_data
    case DataType::kInt8:      // and the narrow integers' values
    case DataType::kUInt8:
    case DataType::kInt16:
    case DataType::kUInt16:
      check_count(tensor.int32_data_size(), "int32_data");
      for (std::size_t i = 0; i < n; ++i) StoreNarrow(type, data->data(), i, tensor.int32_data(static_cast<int>(i)));
      break;
    case DataType::kUInt32:
    case DataType::kUInt64:
      check_count(tensor.uint64_data_size(), "uint64_data");
      for (std::size_t i = 0; i < n; ++i) {
        const std::uint64_t value = tensor.uint64_data(static_cast<int>(i));
        if (type == DataType::kUInt32) {
          StoreElement(data->data(), i, static_cast<std::uint32_t>(value));
        } else {
          StoreElement(data->data(), i, value);
        }
      }
      break;
    case DataType::kFloat64:
      check_count(tensor.double_data_size(), "double_data");
      if (n) std::memcpy(data->data(), tensor.double_data().data(), bytes);
      break;
  }
  return ConstantTensor(info, std::move(data));
}

}  // namespace backplane::onnx
