// Value types shared by the application API and the backend API: tensors, and the id of a
// loaded network.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace backplane {

// A network loaded into one runtime (Runtime::LoadNetwork), as applications and the backend
// contexts' load/unload notifications name it. Unique within that runtime.
using NetworkId = std::uint64_t;

// Element types. f32 is the working type; integer and bool types carry shapes, indices and
// masks; f16/bf16 are declared for backends that can use them; op set v2 adds the other integer
// widths (int8/uint8 for quantized models) and f64. Values are stable (ABI).
enum class DataType : std::uint32_t {
  kFloat32 = 0,
  kFloat16 = 1,
  kBFloat16 = 2,
  kInt32 = 3,
  kInt64 = 4,
  kBool = 5,
  kInt8 = 6,
  kUInt8 = 7,
  kInt16 = 8,
  kUInt16 = 9,
  kUInt32 = 10,
  kUInt64 = 11,
  kFloat64 = 12,
};

// Size of one element in bytes.
std::size_t SizeOf(DataType type);
// Short stable names: "f32", "f16", "bf16", "i32", "i64", "bool", "i8", "u8", "i16", "u16", "u32",
// "u64", "f64".
const char* ToString(DataType type);
std::optional<DataType> DataTypeFromString(std::string_view name);

// Dimensions of a tensor, outermost first (NCHW for images). Value type.
class TensorShape {
 public:
  TensorShape() = default;
  TensorShape(std::initializer_list<std::int64_t> dims) : dims_(dims) {}
  explicit TensorShape(std::vector<std::int64_t> dims) : dims_(std::move(dims)) {}

  std::size_t Rank() const { return dims_.size(); }
  std::int64_t operator[](std::size_t axis) const { return dims_[axis]; }
  const std::vector<std::int64_t>& Dims() const { return dims_; }
  // Product of the dimensions (1 for a scalar of rank 0).
  std::int64_t NumElements() const;

  friend bool operator==(const TensorShape& a, const TensorShape& b) { return a.dims_ == b.dims_; }
  friend bool operator!=(const TensorShape& a, const TensorShape& b) { return !(a == b); }

 private:
  std::vector<std::int64_t> dims_;
};

// "[1,3,224,224]"
std::string ToString(const TensorShape& shape);

// Shape plus element type. Value type.
struct TensorInfo {
  TensorShape shape;
  DataType type = DataType::kFloat32;

  std::size_t NumBytes() const { return static_cast<std::size_t>(shape.NumElements()) * SizeOf(type); }

  friend bool operator==(const TensorInfo& a, const TensorInfo& b) {
    return a.shape == b.shape && a.type == b.type;
  }
  friend bool operator!=(const TensorInfo& a, const TensorInfo& b) { return !(a == b); }
};

// Views over memory the caller owns and keeps alive for the duration of the call they are
// passed to. `data` holds info.NumBytes() bytes, densely laid out, outermost dimension first.
struct ConstTensorView {
  TensorInfo info;
  const void* data = nullptr;
};

struct TensorView {
  TensorInfo info;
  void* data = nullptr;
};

}  // namespace backplane
