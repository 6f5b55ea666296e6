// ElementwiseBinary with numpy broadcasting: add, sub, mul, div, max, min, mod, fmod and pow on
// every type but bool (pow's exponent of any such type, the output of the base's); bit shifts on
// the unsigned integers; the comparisons on the same types (Equal on bool too), giving bool; and,
// or, xor on bool. Bool elements are bytes, 0 or 1. f16 and bf16 are computed in float and each result rounded once
// (ConvertElement).
//
// The output's index space is walked as a StridedLoop over (output, a, b), so equal shapes run
// as one flat loop, a scalar or a per-row operand (bias over H*W) runs as rows against a
// scalar, and any other broadcast ([3,1,5] x [4,1]) as rows of the innermost dimension.
#include "broadcast.hpp"
#include "reference_ops.hpp"
#include "tensor_access.hpp"

#include "../reference_backend.hpp"

#include <backplane/backend/op_schema.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/element_types.hpp>
#include <backplane/exception.hpp>

#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>

namespace backplane::reference {

namespace {

using Bool = std::uint8_t;  // a bool element

// The arithmetic ops on numbers (f16 and bf16 go through InFloat). Integers wrap on overflow (two's complement, computed in uint64 so there is no undefined behaviour); an
// integer Div, Mod or Fmod by zero throws Exception (kInvalidArgument) from the run. max and min
// return NaN when either operand is NaN (numpy.maximum / numpy.minimum); the comparisons are
// false when either is NaN (Equal too).
template <typename T>
constexpr bool kFloating = std::is_floating_point_v<T>;

template <typename T>
void RequireNonZeroDivisor(T b, const char* op) {
  if (b == 0) throw Exception(ErrorCode::kInvalidArgument, std::string("integer ") + op + " by zero");
}

struct Add {
  template <typename T>
  T operator()(T a, T b) const { return AddElements(a, b); }
};
struct Sub {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (kFloating<T>) {
      return a - b;
    } else {
      return static_cast<T>(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
    }
  }
};
struct Mul {
  template <typename T>
  T operator()(T a, T b) const { return MultiplyElements(a, b); }
};
// Integers: truncated toward zero, as C++ and ONNX; the lowest value / -1 wraps to itself.
struct Div {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (kFloating<T>) {
      return a / b;
    } else {
      RequireNonZeroDivisor(b, "Div");
      if constexpr (std::is_signed_v<T>) {
        if (b == -1) return Sub{}(T{0}, a);
      }
      return static_cast<T>(a / b);
    }
  }
};
struct Max {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (kFloating<T>) return (a > b || std::isnan(a)) ? a : b; else return a > b ? a : b;
  }
};
struct Min {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (kFloating<T>) return (a < b || std::isnan(a)) ? a : b; else return a < b ? a : b;
  }
};
// ONNX Pow: the base's type A, the exponent's B of any number type. Integers: exact
// (IntegerPower, as numpy); the same floating-point type: std::pow in it; else computed in
// double and converted to A once (numpy's power(a, b).astype(a.dtype)).
struct Pow {
  template <typename A, typename B>
  A operator()(A a, B b) const {
    if constexpr (std::is_integral_v<A> && std::is_integral_v<B>) {
      return IntegerPower(a, b);
    } else if constexpr (std::is_same_v<A, B> && kFloating<A>) {
      return std::pow(a, b);
    } else {
      return ConvertElement<A>(std::pow(ConvertElement<double>(a), ConvertElement<double>(b)));
    }
  }
};
// The dividend's sign (C fmod, C++ %).
struct Fmod {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (kFloating<T>) {
      return std::fmod(a, b);
    } else {
      RequireNonZeroDivisor(b, "Fmod");
      if constexpr (std::is_signed_v<T>) {
        if (b == -1) return T{0};
      }
      return static_cast<T>(a % b);
    }
  }
};
// The divisor's sign (Python's %): the truncated remainder moved by one divisor when the signs
// differ.
struct Mod {
  template <typename T>
  T operator()(T a, T b) const {
    if constexpr (!kFloating<T>) RequireNonZeroDivisor(b, "Mod");
    const T r = Fmod{}(a, b);
    if constexpr (std::is_signed_v<T>) {
      if (r != 0 && ((r < 0) != (b < 0))) return static_cast<T>(r + b);
    }
    return r;
  }
};
// ONNX BitShift on unsigned integers (the op schema's rule): a shift by the bit width or more
// gives 0 (numpy's and ONNX's reference result), where C++'s << and >> would be undefined.
struct BitShiftLeft {
  template <typename T>
  T operator()(T a, T b) const {
    static_assert(std::is_unsigned_v<T>, "BitShiftLeft takes unsigned integers");
    return b >= T{sizeof(T) * 8} ? T{0} : static_cast<T>(a << b);
  }
};
struct BitShiftRight {
  template <typename T>
  T operator()(T a, T b) const {
    static_assert(std::is_unsigned_v<T>, "BitShiftRight takes unsigned integers");
    return b >= T{sizeof(T) * 8} ? T{0} : static_cast<T>(a >> b);
  }
};
struct Equal { template <typename T> Bool operator()(T a, T b) const { return a == b; } };
struct Less { template <typename T> Bool operator()(T a, T b) const { return a < b; } };
struct LessOrEqual { template <typename T> Bool operator()(T a, T b) const { return a <= b; } };
struct Greater { template <typename T> Bool operator()(T a, T b) const { return a > b; } };
struct GreaterOrEqual { template <typename T> Bool operator()(T a, T b) const { return a >= b; } };
struct And { Bool operator()(Bool a, Bool b) const { return a != 0 && b != 0; } };
struct Or { Bool operator()(Bool a, Bool b) const { return a != 0 || b != 0; } };
struct Xor { Bool operator()(Bool a, Bool b) const { return (a != 0) != (b != 0); } };

// Op on f16 or bf16 elements: computed in float, an arithmetic result rounded once to T.
template <typename Op>
struct InFloat {
  template <typename T>
  auto operator()(T a, T b) const {
    const auto result = Op{}(ConvertElement<float>(a), ConvertElement<float>(b));
    if constexpr (std::is_same_v<std::remove_const_t<decltype(result)>, Bool>) {
      return result;
    } else {
      return ConvertElement<T>(result);
    }
  }
};

// Inputs of element types A and B, output of Out.
template <typename Op, typename A, typename B, typename Out>
class BinaryWorkload final : public backend::IWorkload {
 public:
  explicit BinaryWorkload(StridedLoop<3> loop) : loop_(std::move(loop)) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const A* a = Input<A>(args, 0);
    const B* b = Input<B>(args, 1);
    Out* out = Output<Out>(args, 0);
    const Op op;
    loop_.ForEachRow([&](const StridedLoop<3>::Offsets& at, std::int64_t n, const StridedLoop<3>::Offsets& step) {
      Out* o = out + at[0];
      const A* x = a + at[1];
      const B* y = b + at[2];
      // The output is dense, so step[0] is 1 for every row longer than one element.
      if (step[1] == 1 && step[2] == 1) {
        for (std::int64_t i = 0; i < n; ++i) o[i] = op(x[i], y[i]);
      } else if (step[1] == 1 && step[2] == 0) {
        const B s = *y;
        for (std::int64_t i = 0; i < n; ++i) o[i] = op(x[i], s);
      } else if (step[1] == 0 && step[2] == 1) {
        const A s = *x;
        for (std::int64_t i = 0; i < n; ++i) o[i] = op(s, y[i]);
      } else {
        for (std::int64_t i = 0; i < n; ++i) o[i * step[0]] = op(x[i * step[1]], y[i * step[2]]);
      }
    });
  }

 private:
  StridedLoop<3> loop_;
};

// Arithmetic on inputs of `type`, not bool (the op schema refuses bool): the output has it too.
template <typename Op>
std::unique_ptr<backend::IWorkload> MakeArithmetic(StridedLoop<3> loop, DataType type) {
  return VisitElementType(type, [&](auto element) -> std::unique_ptr<backend::IWorkload> {
    using T = decltype(element);
    if constexpr (kIsNumberElement<T>) {
      return std::make_unique<BinaryWorkload<Op, T, T, T>>(std::move(loop));
    } else if constexpr (kIsFloat16Element<T>) {
      return std::make_unique<BinaryWorkload<InFloat<Op>, T, T, T>>(std::move(loop));
    } else {
      throw Exception(ErrorCode::kInternal, std::string("CpuRef has no arithmetic on ") + ToString(type));
    }
  });
}

// Pow of a base of `base` by an exponent of `exponent` (both not bool, the op schema's rule):
// the output has the base's type.
std::unique_ptr<backend::IWorkload> MakePow(StridedLoop<3> loop, DataType base, DataType exponent) {
  return VisitElementType(base, [&](auto base_element) -> std::unique_ptr<backend::IWorkload> {
    using A = decltype(base_element);
    return VisitElementType(exponent, [&](auto exponent_element) -> std::unique_ptr<backend::IWorkload> {
      using B = decltype(exponent_element);
      if constexpr (kIsArithmeticElement<A> && kIsArithmeticElement<B>) {
        return std::make_unique<BinaryWorkload<Pow, A, B, A>>(std::move(loop));
      } else {
        throw Exception(ErrorCode::kInternal, std::string("CpuRef has no Pow of ") + ToString(base) + " by " +
                                                  ToString(exponent));
      }
    });
  });
}

// A comparison of inputs of `type` (one IsElementwiseBinarySupported accepts).
template <typename Op>
std::unique_ptr<backend::IWorkload> MakeComparison(StridedLoop<3> loop, DataType type) {
  return VisitElementType(type, [&](auto element) -> std::unique_ptr<backend::IWorkload> {
    using T = decltype(element);
    if constexpr (kIsNumberElement<T>) {
      return std::make_unique<BinaryWorkload<Op, T, T, Bool>>(std::move(loop));
    } else if constexpr (kIsFloat16Element<T>) {
      return std::make_unique<BinaryWorkload<InFloat<Op>, T, T, Bool>>(std::move(loop));
    } else if constexpr (std::is_same_v<T, bool>) {
      return std::make_unique<BinaryWorkload<Op, Bool, Bool, Bool>>(std::move(loop));
    } else {
      throw Exception(ErrorCode::kInternal, std::string("CpuRef cannot compare ") + ToString(type));
    }
  });
}

// A bit shift of inputs of `type`, an unsigned integer type (the op schema's rule).
template <typename Op>
std::unique_ptr<backend::IWorkload> MakeBitShift(StridedLoop<3> loop, DataType type) {
  return VisitElementType(type, [&](auto element) -> std::unique_ptr<backend::IWorkload> {
    using T = decltype(element);
    if constexpr (std::is_unsigned_v<T> && !std::is_same_v<T, bool>) {
      return std::make_unique<BinaryWorkload<Op, T, T, T>>(std::move(loop));
    } else {
      throw Exception(ErrorCode::kInternal, std::string("CpuRef has no bit shift of ") + ToString(type));
    }
  });
}

template <typename Op>
std::unique_ptr<backend::IWorkload> MakeLogical(StridedLoop<3> loop) {
  return std::make_unique<BinaryWorkload<Op, Bool, Bool, Bool>>(std::move(loop));
}

}  // namespace

bool IsElementwiseBinarySupported(const backend::ILayerView& layer, std::string& reason) {
  const BinaryOperation operation = DescriptorOf<ElementwiseBinaryDescriptor>(layer).operation;
  if (backend::IsLogical(operation)) return true;  // bool inputs: the op schema's rule
  const DataType type = layer.GetInputInfo(0).type;
  // Arithmetic: every type but bool (and Pow's exponent too), which the op schema refuses.
  if (!backend::GivesBool(operation) || IsArithmeticType(type) || operation == BinaryOperation::kEqual) return true;
  reason = "CpuRef compares bool inputs for equality only (Equal), not by order";
  return false;
}

std::unique_ptr<backend::IWorkload> CreateElementwiseBinaryWorkload(const backend::ILayerView& layer) {
  const auto& descriptor = DescriptorOf<ElementwiseBinaryDescriptor>(layer);
  const TensorShape& out = layer.GetOutputInfo(0).shape;
  StridedLoop<3> loop(out.Dims(), {DenseStrides(out), BroadcastStrides(layer.GetInputInfo(0).shape, out),
                                   BroadcastStrides(layer.GetInputInfo(1).shape, out)});
  const DataType type = layer.GetInputInfo(0).type;
  switch (descriptor.operation) {
    case BinaryOperation::kAdd: return MakeArithmetic<Add>(std::move(loop), type);
    case BinaryOperation::kSub: return MakeArithmetic<Sub>(std::move(loop), type);
    case BinaryOperation::kMul: return MakeArithmetic<Mul>(std::move(loop), type);
    case BinaryOperation::kDiv: return MakeArithmetic<Div>(std::move(loop), type);
    case BinaryOperation::kMax: return MakeArithmetic<Max>(std::move(loop), type);
    case BinaryOperation::kMin: return MakeArithmetic<Min>(std::move(loop), type);
    case BinaryOperation::kPow: return MakePow(std::move(loop), type, layer.GetInputInfo(1).type);
    case BinaryOperation::kMod: return MakeArithmetic<Mod>(std::move(loop), type);
    case BinaryOperation::kFmod: return MakeArithmetic<Fmod>(std::move(loop), type);
    case BinaryOperation::kEqual: return MakeComparison<Equal>(std::move(loop), type);
    case BinaryOperation::kLess: return MakeComparison<Less>(std::move(loop), type);
    case BinaryOperation::kLessOrEqual: return MakeComparison<LessOrEqual>(std::move(loop), type);
    case BinaryOperation::kGreater: return MakeComparison<Greater>(std::move(loop), type);
    case BinaryOperation::kGreaterOrEqual: return MakeComparison<GreaterOrEqual>(std::move(loop), type);
    case BinaryOperation::kAnd: return MakeLogical<And>(std::move(loop));
    case BinaryOperation::kOr: return MakeLogical<Or>(std::move(loop));
    case BinaryOperation::kXor: return MakeLogical<Xor>(std::move(loop));
    case BinaryOperation::kBitShiftLeft: return MakeBitShift<BitShiftLeft>(std::move(loop), type);
    case BinaryOperation::kBitShiftRight: return MakeBitShift<BitShiftRight>(std::move(loop), type);
  }
  throw Exception(ErrorCode::kUnsupported, "ElementwiseBinary operation " +
                                               std::to_string(static_cast<std::uint32_t>(descriptor.operation)) +
                                               " is not one CpuRef knows");
}

}  // namespace backplane::reference
