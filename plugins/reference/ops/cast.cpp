// Cast between f32, i32, i64 and bool, as numpy's astype: f32 to an integer truncates toward
// zero, anything to bool is "not zero" (NaN is true), bool reads as 0 or 1, i64 to i32 keeps
// the low 32 bits. Where numpy leaves the result undefined, f32 to integer saturates at the
// integer's range and maps NaN to 0.
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

namespace backplane::reference {

namespace {

bool Castable(DataType type) {
  return type == DataType::kFloat32 || type == DataType::kInt32 || type == DataType::kInt64 ||
         type == DataType::kBool;
}

template <typename To, typename From>
To Convert(From value) {
  if constexpr (std::is_same_v<To, bool>) {
    return value != From{0};
  } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    if (std::isnan(value)) return 0;
    // Both bounds are powers of two, exact in float.
    constexpr auto kLow = static_cast<From>(std::numeric_limits<To>::min());
    constexpr auto kHigh = -kLow;
    if (value <= kLow) return std::numeric_limits<To>::min();
    if (value >= kHigh) return std::numeric_limits<To>::max();
    return static_cast<To>(value);
  } else {
    return static_cast<To>(value);
  }
}

template <typename From, typename To>
class CastWorkload final : public backend::IWorkload {
 public:
  explicit CastWorkload(std::int64_t count) : count_(count) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const auto* in = Input<unsigned char>(args, 0);
    auto* out = Output<unsigned char>(args, 0);
    for (std::int64_t i = 0; i < count_; ++i) {
      Store(out + i * static_cast<std::int64_t>(Size<To>()),
            Convert<To>(Load<From>(in + i * static_cast<std::int64_t>(Size<From>()))));
    }
  }

 private:
  // bool is stored as one byte; any non-zero byte reads as true, true writes as 1.
  template <typename T>
  static constexpr std::size_t Size() {
    return std::is_same_v<T, bool> ? 1 : sizeof(T);
  }
  template <typename T>
  static T Load(const unsigned char* at) {
    if constexpr (std::is_same_v<T, bool>) {
      return *at != 0;
    } else {
      T value;
      std::memcpy(&value, at, sizeof(T));
      return value;
    }
  }
  template <typename T>
  static void Store(unsigned char* at, T value) {
    if constexpr (std::is_same_v<T, bool>) {
      *at = value ? 1 : 0;
    } else {
      std::memcpy(at, &value, sizeof(T));
    }
  }

  std::int64_t count_;
};

class CopyWorkload final : public backend::IWorkload {
 public:
  explicit CopyWorkload(std::size_t bytes) : bytes_(bytes) {}
  void Execute(const backend::WorkloadArgs& args) const override {
    const void* in = Input<void>(args, 0);
    void* out = Output<void>(args, 0);
    if (in != out && bytes_ > 0) std::memcpy(out, in, bytes_);
  }

 private:
  std::size_t bytes_;
};

template <typename From>
std::unique_ptr<backend::IWorkload> MakeFrom(DataType to, std::int64_t count) {
  switch (to) {
    case DataType::kFloat32: return std::make_unique<CastWorkload<From, float>>(count);
    case DataType::kInt32: return std::make_unique<CastWorkload<From, std::int32_t>>(count);
    case DataType::kInt64: return std::make_unique<CastWorkload<From, std::int64_t>>(count);
    case DataType::kBool: return std::make_unique<CastWorkload<From, bool>>(count);
    default: break;
  }
  throw Exception(ErrorCode::kUnsupported, std::string("CpuRef cannot cast to ") + ToString(to));
}

}  // namespace

bool IsCastSupported(const backend::ILayerView& layer, std::string& reason) {
  const DataType from = layer.GetInputInfo(0).type;
  const DataType to = DescriptorOf<CastDescriptor>(layer).to;
  if (!Castable(from) || !Castable(to)) {
    reason = "cannot cast " + std::string(ToString(from)) + " to " + ToString(to) +
             "; CpuRef casts between f32, i32, i64 and bool only";
    return false;
  }
  return true;
}

std::unique_ptr<backend::IWorkload> CreateCastWorkload(const backend::ILayerView& layer) {
  const TensorInfo& in = layer.GetInputInfo(0);
  const DataType to = DescriptorOf<CastDescriptor>(layer).to;
  const std::int64_t count = in.shape.NumElements();
  if (in.type == to && to != DataType::kBool) return std::make_unique<CopyWorkload>(in.NumBytes());
  switch (in.type) {
    case DataType::kFloat32: return MakeFrom<float>(to, count);
    case DataType::kInt32: return MakeFrom<std::int32_t>(to, count);
    case DataType::kInt64: return MakeFrom<std::int64_t>(to, count);
    case DataType::kBool: return MakeFrom<bool>(to, count);
    default: break;
  }
  throw Exception(ErrorCode::kUnsupported, std::string("CpuRef cannot cast from ") + ToString(in.type));
}

}  // namespace backplane::reference
