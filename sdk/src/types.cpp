#include <backplane/types.hpp>

#include <array>
#include <utility>

namespace backplane {

namespace {
struct DataTypeName {
  DataType type;
  const char* name;
  std::size_t size;
};
constexpr std::array<DataTypeName, 13> kDataTypes{{
    {DataType::kFloat32, "f32", 4},  {DataType::kFloat16, "f16", 2},  {DataType::kBFloat16, "bf16", 2},
    {DataType::kInt32, "i32", 4},    {DataType::kInt64, "i64", 8},    {DataType::kBool, "bool", 1},
    {DataType::kInt8, "i8", 1},      {DataType::kUInt8, "u8", 1},     {DataType::kInt16, "i16", 2},
    {DataType::kUInt16, "u16", 2},   {DataType::kUInt32, "u32", 4},   {DataType::kUInt64, "u64", 8},
    {DataType::kFloat64, "f64", 8},
}};
}  // namespace

std::size_t SizeOf(DataType type) {
  for (const auto& entry : kDataTypes) {
    if (entry.type == type) return entry.size;
  }
  return 0;
}

const char* ToString(DataType type) {
  for (const auto& entry : kDataTypes) {
    if (entry.type == type) return entry.name;
  }
  return "unknown";
}

std::optional<DataType> DataTypeFromString(std::string_view name) {
  for (const auto& entry : kDataTypes) {
    if (name == entry.name) return entry.type;
  }
  return std::nullopt;
}

std::int64_t TensorShape::NumElements() const {
  std::int64_t count = 1;
  for (auto dim : dims_) count *= dim;
  return count;
}

std::string ToString(const TensorShape& shape) {
  std::string text = "[";
  for (std::size_t i = 0; i < shape.Rank(); ++i) {
    if (i) text += ",";
    text += std::to_string(shape[i]);
  }
  return text + "]";
}

}  // namespace backplane
