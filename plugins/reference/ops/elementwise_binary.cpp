// ElementwiseBinary with numpy broadcasting: add, sub, mul, div, max, min, mod, fmod on every
// number type but f16 and bf16, pow on f32 and f64; the comparisons on the same numbers (Equal
// on bool too), giving bool; and, or, xor on bool. Bool elements are bytes, 0 or 1.
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

// The arithmetic ops take every numeric type but f16 and bf16 (Pow f32 and f64 only). Integers
// wrap on overflow (two's complement, computed in uint64 so there is no undefined behaviour); an
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
struct Pow {
  template <typename T>
  T operator()(T a, T b) const { return std::pow(a, b); }
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
struct Equal { template <typename T> Bool operator()(T a, T b) const { return a == b; } };
struct Less { template <typename T> Bool operator()(T a, T b) const { return a < b; } };
struct LessOrEqual { template <typename T> Bool operator()(T a, T b) const { return a <= b; } };
struct Greater { template <typename T> Bool operator()(T a, T b) const { return a > b; } };
struct GreaterOrEqual { template <typename T> Bool operator()(T a, T b) const { return a >= b; } };
struct And { Bool operator()(Bool a, Bool b) const { return a != 0 && b != 0; } };
struct Or { Bool operator()(Bool a, Bool b) const { return a != 0 || b != 0; } };
struct Xor { Bool operator()(Bool a, Bool b) const { return (a != 0) != (b != 0); } };

// Inputs of element type In, output of Out.
template <typename Op, typename In, typename Out>
class BinaryWorkload final : public backend::IWorkload {
 public:
  explicit BinaryWorkload(StridedLoop<3> loop) : loop_(std::move(loop)) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const In* a = Input<In>(args, 0);
    const In* b = Input<In>(args, 1);
    Out* out = Output<Out>(args, 0);
    const Op op;
    loop_.ForEachRow([&](const StridedLoop<3>::Offsets& at, std::int64_t n, const StridedLoop<3>::Offsets& step) {
      Out* o = out + at[0];
      const In* x = a + at[1];
      const In* y = b + at[2];
      // The output is dense, so step[0] is 1 for every row longer than one element.
      if (step[1] == 1 && step[2] == 1) {
        for (std::int64_t i = 0; i < n; ++i) o[i] = op(x[i], y[i]);
      } else if (step[1] == 1 && step[2] == 0) {
        const In s = *y;
        for (std::int64_t i = 0; i < n; ++i) o[i] = op(x[i], s);
      } else if (step[1] == 0 && step[2] == 1) {
        const In s = *x;
        for (std::int64_t i = 0; i < n; ++i) o[i] = op(s, y[i]);
      } else {
        for (std::int64_t i = 0; i < n; ++i) o[i * step[0]] = op(x[i * step[1]], y[i * step[2]]);
      }
    });
  }

 private:
  StridedLoop<3> loop_;
};

// Arithmetic on inputs of `type` (one IsElementwiseBinarySupported accepts): the output has it
// too. Pow: f32 and f64 only.
template <typename Op>
std::unique_ptr<backend::IWorkload> MakeArithmetic(StridedLoop<3> loop, DataType type) {
  return VisitElementType(type, [&](auto element) -> std::unique_ptr<backend::IWorkload> {
    using T = decltype(element);
    if constexpr (kIsNumberElement<T> && (kFloating<T> || !std::is_same_v<Op, Pow>)) {
      return std::make_unique<BinaryWorkload<Op, T, T>>(std::move(loop));
    } else {
      throw Exception(ErrorCode::kInternal, std::string("CpuRef has no arithmetic on ") + ToString(type));
    }
  });
}

// A comparison of inputs of `type` (one IsElementwiseBinarySupported accepts).
template <typename Op>
std::unique_ptr<backend::IWorkload> MakeComparison(StridedLoop<3> loop, DataType type) {
  return VisitElementType(type, [&](auto element) -> std::unique_ptr<backend::IWorkload> {
    using T = decltype(element);
    if constexpr (kIsNumberElement<T>) {
      return std::make_unique<BinaryWorkload<Op, T, Bool>>(std::move(loop));
    } else if constexpr (std::is_same_v<T, bool>) {
      return std::make_unique<BinaryWorkload<Op, Bool, Bool>>(std::move(loop));
    } else {
      throw Exception(ErrorCode::kInternal, std::string("CpuRef cannot compare ") + ToString(type));
    }
  });
}

template <typename Op>
std::unique_ptr<backend::IWorkload> MakeLogical(StridedLoop<3> loop) {
  return std::make_unique<BinaryWorkload<Op, Bool, Bool>>(std::move(loop));
}

}  // namespace

bool IsElementwiseBinarySupported(const backend::ILayerView& layer, std::string& reason) {
  const BinaryOperation operation = DescriptorOf<ElementwiseBinaryDescriptor>(layer).operation;
  if (backend::IsLogical(operation)) return true;  // bool inputs: the op schema's rule
  const DataType type = layer.GetInputInfo(0).type;
  const bool number = IsNumberType(type);
  if (backend::GivesBool(operation)) {
    if (number || (type == DataType::kBool && operation == BinaryOperation::kEqual)) return true;
    reason = std::string("CpuRef compares numbers (not f16 or bf16), and bool for equality, not ") + ToString(type);
    return false;
  }
  const bool floating = type == DataType::kFloat32 || type == DataType::kFloat64;
  if (number && (floating || operation != BinaryOperation::kPow)) return true;
  reason = std::string("CpuRef's arithmetic takes numbers other than f16 and bf16 (Pow f32 and f64 only), not ") +
           ToString(type);
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
    case BinaryOperation::kPow: return MakeArithmetic<Pow>(std::move(loop), type);
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
  }
  throw Exception(ErrorCode::kUnsupported, "ElementwiseBinary operation " +
                                               std::to_string(static_cast<std::uint32_t>(descriptor.operation)) +
                                               " is not one CpuRef knows");
}

}  // namespace backplane::reference
