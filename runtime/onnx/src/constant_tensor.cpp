#include "constant_tensor.hpp"

#include <backplane/checked_size.hpp>
#include <backplane/exception.hpp>

#include <onnx/onnx_pb.h>

#include <cmath>
#include <cstring>

namespace backplane::onnx {

namespace {

using ::onnx::TensorProto;

float HalfToFloat(std::uint16_t half) {
  const std::uint32_t sign = static_cast<std::uint32_t>(half & 0x8000u) << 16;
  std::uint32_t exponent = (half >> 10) & 0x1fu;
  std::uint32_t mantissa = half & 0x3ffu;
  std::uint32_t bits = 0;
  if (exponent == 0x1f) {
    bits = sign | 0x7f800000u | (mantissa << 13);  // inf, nan
  } else if (exponent == 0) {
    if (mantissa == 0) {
      bits = sign;
    } else {  // subnormal: normalize
      exponent = 127 - 15 + 1;
      while ((mantissa & 0x400u) == 0) {
        mantissa <<= 1;
        --exponent;
      }
      bits = sign | (exponent << 23) | ((mantissa & 0x3ffu) << 13);
    }
  } else {
    bits = sign | ((exponent + 127 - 15) << 23) | (mantissa << 13);
  }
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// Round to nearest even; overflow to infinity.
std::uint16_t FloatToHalf(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const std::uint16_t sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
  const std::uint32_t abs = bits & 0x7fffffffu;
  if (abs >= 0x7f800000u) return static_cast<std::uint16_t>(sign | 0x7c00u | (abs > 0x7f800000u ? 0x200u : 0));
  if (abs >= 0x477ff000u) return static_cast<std::uint16_t>(sign | 0x7c00u);  // >= 65520: inf
  if (abs < 0x38800000u) {  // subnormal half (or zero)
    const float magnitude = std::fabs(value) * 16777216.0f;  // / 2^-24
    return static_cast<std::uint16_t>(sign | static_cast<std::uint16_t>(std::nearbyint(magnitude)));
  }
  const std::uint32_t rounded = abs + 0xfffu + ((abs >> 13) & 1u);
  return static_cast<std::uint16_t>(sign | ((rounded - 0x38000000u) >> 13));
}

float BFloat16ToFloat(std::uint16_t value) {
  const std::uint32_t bits = static_cast<std::uint32_t>(value) << 16;
  float result;
  std::memcpy(&result, &bits, sizeof result);
  return result;
}

std::uint16_t FloatToBFloat16(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((bits >> 16) | 0x40u);
  return static_cast<std::uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

template <typename T>
T Load(const std::uint8_t* data, std::size_t index) {
  T value;
  std::memcpy(&value, data + index * sizeof(T), sizeof(T));
  return value;
}

template <typename T>
void Store(std::uint8_t* data, std::size_t index, T value) {
  std::memcpy(data + index * sizeof(T), &value, sizeof(T));
}

double LoadDouble(DataType type, const std::uint8_t* data, std::size_t i) {
  switch (type) {
    case DataType::kFloat32: return Load<float>(data, i);
    case DataType::kFloat16: return HalfToFloat(Load<std::uint16_t>(data, i));
    case DataType::kBFloat16: return BFloat16ToFloat(Load<std::uint16_t>(data, i));
    case DataType::kInt32: return Load<std::int32_t>(data, i);
    case DataType::kInt64: return static_cast<double>(Load<std::int64_t>(data, i));
    case DataType::kBool: return data[i] != 0 ? 1.0 : 0.0;
  }
  return 0;
}

void StoreDouble(DataType type, std::uint8_t* data, std::size_t i, double value) {
  switch (type) {
    case DataType::kFloat32: Store(data, i, static_cast<float>(value)); break;
    case DataType::kFloat16: Store(data, i, FloatToHalf(static_cast<float>(value))); break;
    case DataType::kBFloat16: Store(data, i, FloatToBFloat16(static_cast<float>(value))); break;
    case DataType::kInt32: Store(data, i, static_cast<std::int32_t>(value)); break;
    case DataType::kInt64: Store(data, i, static_cast<std::int64_t>(value)); break;
    case DataType::kBool: data[i] = value != 0.0 ? 1 : 0; break;
  }
}

[[noreturn]] void Invalid(const std::string& message) { throw Exception(ErrorCode::kInvalidArgument, message); }

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
  for (std::size_t i = 0; i < values.size(); ++i) {
    switch (type) {
      case DataType::kInt64: Store(bytes->data(), i, values[i]); break;
      case DataType::kInt32: Store(bytes->data(), i, static_cast<std::int32_t>(values[i])); break;
      case DataType::kBool: (*bytes)[i] = values[i] != 0 ? 1 : 0; break;
      default: StoreDouble(type, bytes->data(), i, static_cast<double>(values[i])); break;
    }
  }
  return ConstantTensor({shape, type}, std::move(bytes));
}

ConstantTensor ConstantTensor::FromDouble(const TensorShape& shape, const std::vector<double>& values,
                                          DataType type) {
  auto bytes = std::make_shared<std::vector<std::uint8_t>>(values.size() * SizeOf(type));
  for (std::size_t i = 0; i < values.size(); ++i) StoreDouble(type, bytes->data(), i, values[i]);
  return ConstantTensor({shape, type}, std::move(bytes));
}

bool ConstantTensor::IsFloatingPoint() const {
  return type() == DataType::kFloat32 || type() == DataType::kFloat16 || type() == DataType::kBFloat16;
}

std::vector<std::int64_t> ConstantTensor::ToInt64() const {
  std::vector<std::int64_t> values(NumElements());
  for (std::size_t i = 0; i < values.size(); ++i) {
    switch (type()) {
      case DataType::kInt64: values[i] = Load<std::int64_t>(data(), i); break;
      case DataType::kInt32: values[i] = Load<std::int32_t>(data(), i); break;
      case DataType::kBool: values[i] = data()[i] != 0; break;
      default: {
        const double value = LoadDouble(type(), data(), i);
        values[i] = std::isfinite(value) ? static_cast<std::int64_t>(value) : 0;
      }
    }
  }
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

bool DataTypeFromOnnx(int onnx_type, DataType& type) {
  switch (onnx_type) {
    case TensorProto::FLOAT: type = DataType::kFloat32; return true;
    case TensorProto::FLOAT16: type = DataType::kFloat16; return true;
    case TensorProto::BFLOAT16: type = DataType::kBFloat16; return true;
    case TensorProto::INT32: type = DataType::kInt32; return true;
    case TensorProto::INT64: type = DataType::kInt64; return true;
    case TensorProto::BOOL: type = DataType::kBool; return true;
    default: return false;
  }
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
                                                 " is not supported (FLOAT, FLOAT16, BFLOAT16, INT32, INT64 and BOOL are)");
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
      check_count(tensor.int32_data_size(), "int32_data");
      for (std::size_t i = 0; i < n; ++i) {
        Store(data->data(), i, static_cast<std::uint16_t>(tensor.int32_data(static_cast<int>(i))));
      }
      break;
  }
  return ConstantTensor(info, std::move(data));
}

}  // namespace backplane::onnx
