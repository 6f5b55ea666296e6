#include "host_tensor.hpp"

#include <cmath>
#include <cstring>
#include <limits>

namespace backplane::sdk_run {

namespace {

template <typename T>
void Widen(const std::vector<std::uint8_t>& bytes, std::vector<double>& out) {
  for (std::size_t i = 0; i < out.size(); ++i) {
    T value;
    std::memcpy(&value, bytes.data() + i * sizeof(T), sizeof(T));
    out[i] = static_cast<double>(value);
  }
}

double HalfToDouble(std::uint16_t bits) {
  const int sign = (bits >> 15) ? -1 : 1;
  const int exponent = (bits >> 10) & 0x1f;
  const int mantissa = bits & 0x3ff;
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);  // zero and subnormals
  if (exponent == 0x1f) {
    return mantissa ? std::numeric_limits<double>::quiet_NaN()
                    : sign * std::numeric_limits<double>::infinity();
  }
  return sign * std::ldexp(mantissa + 1024, exponent - 25);
}

double BFloat16ToDouble(std::uint16_t bits) {
  const std::uint32_t widened = static_cast<std::uint32_t>(bits) << 16;
  float value;
  std::memcpy(&value, &widened, sizeof value);
  return value;
}

}  // namespace

HostTensor HostTensor::Zeros(std::string name, const TensorInfo& info) {
  return {std::move(name), info, std::vector<std::uint8_t>(info.NumBytes(), 0)};
}

std::vector<double> AsDoubles(const HostTensor& tensor) {
  std::vector<double> values(static_cast<std::size_t>(tensor.info.shape.NumElements()));
  switch (tensor.info.type) {
    case DataType::kFloat32: Widen<float>(tensor.data, values); break;
    case DataType::kInt32: Widen<std::int32_t>(tensor.data, values); break;
    case DataType::kInt64: Widen<std::int64_t>(tensor.data, values); break;
    case DataType::kBool: Widen<std::uint8_t>(tensor.data, values); break;
    case DataType::kFloat16:
    case DataType::kBFloat16: {
      const bool half = tensor.info.type == DataType::kFloat16;
      for (std::size_t i = 0; i < values.size(); ++i) {
        std::uint16_t bits;
        std::memcpy(&bits, tensor.data.data() + i * sizeof bits, sizeof bits);
        values[i] = half ? HalfToDouble(bits) : BFloat16ToDouble(bits);
      }
      break;
    }
  }
  return values;
}

std::string Describe(const TensorInfo& info) {
  return std::string(ToString(info.type)) + " " + ToString(info.shape);
}

}  // namespace backplane::sdk_run
