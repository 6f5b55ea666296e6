// ElementwiseUnary: every UnaryOperation on the floating-point types (f32, f64; f16 and bf16
// computed in float, each result rounded once), Abs, Neg and Sign on the integers too (wrapping
// as numpy: Neg and Abs of the lowest value give it back), and Not on bool (bytes, 0 or 1).
// Round: halves to even, the default rounding mode's std::nearbyint.
#include "reference_ops.hpp"
#include "map_workload.hpp"
#include "tensor_access.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <cmath>
#include <cstdint>
#include <type_traits>

namespace backplane::reference {

namespace {

bool IsIntegerOperation(UnaryOperation operation) {
  return operation == UnaryOperation::kAbs || operation == UnaryOperation::kNeg || operation == UnaryOperation::kSign;
}

// Abs, Neg and Sign of an integer T (IsIntegerOperation), wrapping.
template <typename T>
std::unique_ptr<backend::IWorkload> MakeInteger(UnaryOperation operation, std::int64_t count) {
  const auto neg = [](T x) { return static_cast<T>(std::uint64_t{0} - static_cast<std::uint64_t>(x)); };
  switch (operation) {
    case UnaryOperation::kNeg: return MakeMapWorkload<T>(count, neg);
    case UnaryOperation::kAbs: return MakeMapWorkload<T>(count, [neg](T x) { return x < T{0} ? neg(x) : x; });
    case UnaryOperation::kSign: return MakeMapWorkload<T>(count, [](T x) { return static_cast<T>((x > T{0}) - (x < T{0})); });
    default: throw Exception(ErrorCode::kInternal, "CpuRef has no integer form of this unary operation");
  }
}

// Every operation but Not on a floating-point T, computed in C = ComputeElement<T>.
template <typename T>
std::unique_ptr<backend::IWorkload> MakeFloating(UnaryOperation operation, std::int64_t count) {
  using C = ComputeElement<T>;
  switch (operation) {
    case UnaryOperation::kSqrt: return MakeComputedMapWorkload<T>(count, [](C x) { return std::sqrt(x); });
    case UnaryOperation::kExp: return MakeComputedMapWorkload<T>(count, [](C x) { return std::exp(x); });
    case UnaryOperation::kLog: return MakeComputedMapWorkload<T>(count, [](C x) { return std::log(x); });
    case UnaryOperation::kAbs: return MakeComputedMapWorkload<T>(count, [](C x) { return std::fabs(x); });
    case UnaryOperation::kNeg: return MakeComputedMapWorkload<T>(count, [](C x) { return -x; });
    case UnaryOperation::kErf: return MakeComputedMapWorkload<T>(count, [](C x) { return std::erf(x); });
    case UnaryOperation::kReciprocal: return MakeComputedMapWorkload<T>(count, [](C x) { return C{1} / x; });
    case UnaryOperation::kSin: return MakeComputedMapWorkload<T>(count, [](C x) { return std::sin(x); });
    case UnaryOperation::kCos: return MakeComputedMapWorkload<T>(count, [](C x) { return std::cos(x); });
    case UnaryOperation::kTan: return MakeComputedMapWorkload<T>(count, [](C x) { return std::tan(x); });
    case UnaryOperation::kAsin: return MakeComputedMapWorkload<T>(count, [](C x) { return std::asin(x); });
    case UnaryOperation::kAcos: return MakeComputedMapWorkload<T>(count, [](C x) { return std::acos(x); });
    case UnaryOperation::kAtan: return MakeComputedMapWorkload<T>(count, [](C x) { return std::atan(x); });
    case UnaryOperation::kSinh: return MakeComputedMapWorkload<T>(count, [](C x) { return std::sinh(x); });
    case UnaryOperation::kCosh: return MakeComputedMapWorkload<T>(count, [](C x) { return std::cosh(x); });
    case UnaryOperation::kAsinh: return MakeComputedMapWorkload<T>(count, [](C x) { return std::asinh(x); });
    case UnaryOperation::kAcosh: return MakeComputedMapWorkload<T>(count, [](C x) { return std::acosh(x); });
    case UnaryOperation::kAtanh: return MakeComputedMapWorkload<T>(count, [](C x) { return std::atanh(x); });
    case UnaryOperation::kSign: return MakeComputedMapWorkload<T>(count, [](C x) { return x > C{0} ? C{1} : (x < C{0} ? C{-1} : x); });
    case UnaryOperation::kCeil: return MakeComputedMapWorkload<T>(count, [](C x) { return std::ceil(x); });
    case UnaryOperation::kFloor: return MakeComputedMapWorkload<T>(count, [](C x) { return std::floor(x); });
    case UnaryOperation::kRound: return MakeComputedMapWorkload<T>(count, [](C x) { return std::nearbyint(x); });
    case UnaryOperation::kNot: break;
  }
  throw Exception(ErrorCode::kUnsupported, "ElementwiseUnary operation " +
                                               std::to_string(static_cast<std::uint32_t>(operation)) +
                                               " is not one CpuRef knows");
}

}  // namespace

bool IsElementwiseUnarySupported(const backend::ILayerView& layer, std::string& reason) {
  const UnaryOperation operation = DescriptorOf<ElementwiseUnaryDescriptor>(layer).operation;
  if (operation == UnaryOperation::kNot) return true;  // bool: the op schema's rule
  const DataType type = layer.GetInputInfo(0).type;
  if (IsFloatingPointType(type) || (IsArithmeticType(type) && IsIntegerOperation(operation))) return true;
  reason = std::string("CpuRef runs ElementwiseUnary on f32, f64, f16 and bf16; on integers (here ") + ToString(type) +
           ") only Abs, Neg and Sign";
  return false;
}

std::unique_ptr<backend::IWorkload> CreateElementwiseUnaryWorkload(const backend::ILayerView& layer) {
  const UnaryOperation operation = DescriptorOf<ElementwiseUnaryDescriptor>(layer).operation;
  const std::int64_t count = layer.GetOutputInfo(0).shape.NumElements();
  if (operation == UnaryOperation::kNot) {
    return MakeMapWorkload<std::uint8_t>(count, [](std::uint8_t x) { return static_cast<std::uint8_t>(x == 0); });
  }
  return VisitElementType(layer.GetInputInfo(0).type, [&](auto element) -> std::unique_ptr<backend::IWorkload> {
    using T = decltype(element);
    if constexpr (kIsFloatingPointElement<T>) {
      return MakeFloating<T>(operation, count);
    } else if constexpr (kIsNumberElement<T>) {
      return MakeInteger<T>(operation, count);
    } else {
      throw Exception(ErrorCode::kInternal, "CpuRef has no unary operation on bool but Not");
    }
  });
}

}  // namespace backplane::reference
