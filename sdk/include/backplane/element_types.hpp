// The C++ type of each DataType's elements and the one conversion rule between them (op set
// v2's types): for kernels written once as templates over the element type (CpuRef's Cast,
// comparisons and arithmetic), for folding at import, which must convert exactly as the kernels
// do, and for applications reading f16 or bf16 outputs. Header-only (plugins compile it in).
// Pure functions: thread-safe.
//
// Elements are stored dense and little-endian: f16 and bf16 as their 16 bits (Half, BFloat16),
// bool as one byte, 0 or 1 (any non-zero byte reads as true).
#pragma once

#include <backplane/exception.hpp>
#include <backplane/types.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>

namespace backplane {

struct Half {
  std::uint16_t bits = 0;
};
struct BFloat16 {
  std::uint16_t bits = 0;
};

inline float HalfToFloat(std::uint16_t half) {
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
inline std::uint16_t FloatToHalf(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
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

inline float BFloat16ToFloat(std::uint16_t value) {
  const std::uint32_t bits = static_cast<std::uint32_t>(value) << 16;
  float result;
  std::memcpy(&result, &bits, sizeof result);
  return result;
}

// Round to nearest even; NaN stays NaN.
inline std::uint16_t FloatToBFloat16(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  if ((bits & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((bits >> 16) | 0x40u);
  return static_cast<std::uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
}

// Calls f(T{}) with T the element type of `type` (bool for kBool, Half, BFloat16) and returns
// its result. Throws Exception (kInternal) for a value outside the enumeration (callers pass
// types the op schema has checked).
template <typename F>
decltype(auto) VisitElementType(DataType type, F&& f) {
  switch (type) {
    case DataType::kFloat32: return f(float{});
    case DataType::kFloat16: return f(Half{});
    case DataType::kBFloat16: return f(BFloat16{});
    case DataType::kInt32: return f(std::int32_t{});
    case DataType::kInt64: return f(std::int64_t{});
    case DataType::kBool: return f(bool{});
    case DataType::kInt8: return f(std::int8_t{});
    case DataType::kUInt8: return f(std::uint8_t{});
    case DataType::kInt16: return f(std::int16_t{});
    case DataType::kUInt16: return f(std::uint16_t{});
    case DataType::kUInt32: return f(std::uint32_t{});
    case DataType::kUInt64: return f(std::uint64_t{});
    case DataType::kFloat64: return f(double{});
  }
  throw Exception(ErrorCode::kInternal, "data type " + std::to_string(static_cast<std::uint32_t>(type)) + " is unknown");
}

// Whether kernels compute on T / `type` directly as numbers (not bool, nor f16 and bf16, which
// are stored bits).
template <typename T>
inline constexpr bool kIsNumberElement = std::is_arithmetic_v<T> && !std::is_same_v<T, bool>;
inline bool IsNumberType(DataType type) {
  return type != DataType::kBool && type != DataType::kFloat16 && type != DataType::kBFloat16;
}

// Whether T is a 16-bit float stored as its bits (Half, BFloat16): kernels compute it in float
// (ComputeElement) and round each result once (ConvertElement).
template <typename T>
inline constexpr bool kIsFloat16Element = std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>;
// Whether kernels compute with T / `type` (a number, f16 or bf16: every type but bool).
template <typename T>
inline constexpr bool kIsArithmeticElement = kIsNumberElement<T> || kIsFloat16Element<T>;
inline bool IsArithmeticType(DataType type) { return type != DataType::kBool; }
// Whether `type` is an unsigned integer type (u8, u16, u32, u64).
inline bool IsUnsignedIntegerType(DataType type) {
  return type == DataType::kUInt8 || type == DataType::kUInt16 || type == DataType::kUInt32 ||
         type == DataType::kUInt64;
}
// Whether T / `type` is floating point (f32, f64, f16, bf16).
template <typename T>
inline constexpr bool kIsFloatingPointElement = std::is_floating_point_v<T> || kIsFloat16Element<T>;
inline bool IsFloatingPointType(DataType type) {
  return type == DataType::kFloat32 || type == DataType::kFloat64 || type == DataType::kFloat16 ||
         type == DataType::kBFloat16;
}
// The type a kernel computes elements of T in: float for Half and BFloat16, T for a number.
template <typename T>
using ComputeElement = std::conditional_t<kIsFloat16Element<T>, float, T>;

// Whether a number T is NaN (never for integers).
template <typename T>
bool IsNanElement(T value) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::isnan(value);
  } else {
    return false;
  }
}

// a + b and a * b of numbers T; integers wrap (two's complement, computed in uint64, so there is
// no undefined behaviour on overflow).
template <typename T>
T AddElements(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return a + b;
  } else {
    return static_cast<T>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
  }
}
template <typename T>
T MultiplyElements(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    return a * b;
  } else {
    return static_cast<T>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
  }
}

// a to the power b for integers A and B, as numpy's power on integers: exact, wrapping as
// MultiplyElements (by squaring). numpy refuses a negative power of an integer; here it is the
// real result truncated toward zero, as for a floating-point exponent: 1 for a = 1, +-1 for
// a = -1, else 0 (0 for a = 0 too).
template <typename A, typename B>
A IntegerPower(A a, B b) {
  static_assert(std::is_integral_v<A> && std::is_integral_v<B>, "IntegerPower takes integers");
  if constexpr (std::is_signed_v<B>) {
    if (b < 0) {
      if (a == 1) return A{1};
      if constexpr (std::is_signed_v<A>) {
        if (a == -1) return (b % 2 == 0) ? A{1} : A{-1};
      }
      return A{0};
    }
  }
  A result{1};
  auto exponent = static_cast<std::uint64_t>(b);
  for (A base = a; exponent != 0; exponent >>= 1) {
    if (exponent & 1u) result = MultiplyElements(result, base);
    base = MultiplyElements(base, base);
  }
  return result;
}

// Element i of `data`, an array of T (bool: bytes).
template <typename T>
T LoadElement(const void* data, std::size_t i) {
  if constexpr (std::is_same_v<T, bool>) {
    return static_cast<const std::uint8_t*>(data)[i] != 0;
  } else {
    T value;
    std::memcpy(&value, static_cast<const unsigned char*>(data) + i * sizeof(T), sizeof(T));
    return value;
  }
}

template <typename T>
void StoreElement(void* data, std::size_t i, T value) {
  if constexpr (std::is_same_v<T, bool>) {
    static_cast<std::uint8_t*>(data)[i] = value ? 1 : 0;
  } else {
    std::memcpy(static_cast<unsigned char*>(data) + i * sizeof(T), &value, sizeof(T));
  }
}

// The conversion of one element, as numpy's astype where numpy defines it: to bool is "not
// zero" (NaN is true); from bool 0 or 1; floating point to an integer truncates toward zero;
// integers narrow by keeping the low bits (two's complement). Where numpy leaves it undefined,
// floating point to an integer saturates at the integer's range and NaN becomes 0.
// f16 and bf16 go through float (rounded to nearest even on the way back).
template <typename To, typename From>
To ConvertElement(From value) {
  if constexpr (std::is_same_v<From, Half>) {
    return ConvertElement<To>(HalfToFloat(value.bits));
  } else if constexpr (std::is_same_v<From, BFloat16>) {
    return ConvertElement<To>(BFloat16ToFloat(value.bits));
  } else if constexpr (std::is_same_v<To, Half>) {
    return Half{FloatToHalf(ConvertElement<float>(value))};
  } else if constexpr (std::is_same_v<To, BFloat16>) {
    return BFloat16{FloatToBFloat16(ConvertElement<float>(value))};
  } else if constexpr (std::is_same_v<To, bool>) {
    return value != From{0};
  } else if constexpr (std::is_floating_point_v<From> && std::is_integral_v<To>) {
    if (std::isnan(value)) return 0;
    // min is 0 or -2^digits and max + 1 is 2^digits: both exact in any floating-point type.
    const auto low = static_cast<From>(std::numeric_limits<To>::min());
    const auto high = static_cast<From>(std::ldexp(1.0, std::numeric_limits<To>::digits));
    if (value <= low) return std::numeric_limits<To>::min();
    if (value >= high) return std::numeric_limits<To>::max();
    return static_cast<To>(value);
  } else {
    return static_cast<To>(value);
  }
}

}  // namespace backplane
