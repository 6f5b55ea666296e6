#include "constant_folding.hpp"

#include <backplane/element_types.hpp>
#include <backplane/backend/broadcast.hpp>
#include <backplane/backend/op_geometry.hpp>
#include <backplane/backend/op_schema.hpp>
#include <backplane/backend/reduction.hpp>
#include <backplane/backend/data_dependent.hpp>
#include <backplane/checked_size.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

namespace backplane::onnx::folding {

namespace {

using Dims = std::vector<std::int64_t>;

[[noreturn]] void Invalid(const std::string& message) { throw Exception(ErrorCode::kInvalidArgument, message); }

std::string Str(const Dims& dims) { return ToString(TensorShape(dims)); }

// Allocates the bytes of a result after checking its size.
std::shared_ptr<std::vector<std::uint8_t>> Allocate(const Dims& dims, DataType type, std::uint64_t max_bytes) {
  const std::uint64_t bytes = CheckedNumBytes(dims, type, max_bytes, "ImportOptions::max_model_bytes", "the result");
  return std::make_shared<std::vector<std::uint8_t>>(static_cast<std::size_t>(bytes));
}

// Row-major strides of `dims`.
Dims Strides(const Dims& dims) { return backend::DenseStrides(TensorShape(dims)); }

// The output shapes op set v1's schema gives a layer of `descriptor`'s type with inputs of
// `inputs` (and `num_outputs` outputs): folding computes what that layer would, so it takes its
// shape rules from the one owner. Throws Exception (kInvalidArgument) with the schema's reason.
template <typename Descriptor>
std::vector<Dims> SchemaShapes(const Descriptor& descriptor, const std::vector<const ConstantTensor*>& inputs,
                               std::size_t num_outputs = 1) {
  std::vector<TensorInfo> infos;
  for (const ConstantTensor* input : inputs) infos.push_back(input->info());
  const backend::LayerValues layer(Descriptor::kType, "", &descriptor, std::move(infos),
                                   std::vector<TensorInfo>(num_outputs));
  std::vector<TensorInfo> outputs;
  std::string why;
  if (!backend::InferOutputs(layer, outputs, why)) Invalid(why);
  std::vector<Dims> shapes;
  for (const TensorInfo& output : outputs) shapes.push_back(output.shape.Dims());
  return shapes;
}

// An ONNX axis or permutation entry as op set v1's 32-bit field.
template <typename Field>
Field Narrow(std::int64_t value, const char* what) {
  if (value < std::numeric_limits<Field>::min() || value > std::numeric_limits<Field>::max()) {
    Invalid(std::string(what) + " " + std::to_string(value) + " is out of range");
  }
  return static_cast<Field>(value);
}

template <typename Field>
std::vector<Field> Narrow(const Dims& values, const char* what) {
  std::vector<Field> narrowed;
  for (const std::int64_t value : values) narrowed.push_back(Narrow<Field>(value, what));
  return narrowed;
}

// For every element of `out` (row-major), the flat index into a tensor of `in` broadcast to it.
std::vector<std::size_t> BroadcastIndex(const Dims& in, const Dims& out) {
  const std::size_t rank = out.size();
  Dims padded(rank - in.size(), 1);
  padded.insert(padded.end(), in.begin(), in.end());
  const Dims in_strides = Strides(padded);
  const auto count = static_cast<std::size_t>(TensorShape(out).NumElements());
  std::vector<std::size_t> index(count);
  Dims position(rank, 0);
  for (std::size_t flat = 0; flat < count; ++flat) {
    std::int64_t source = 0;
    for (std::size_t a = 0; a < rank; ++a) source += (padded[a] == 1 ? 0 : position[a]) * in_strides[a];
    index[flat] = static_cast<std::size_t>(source);
    for (std::size_t a = rank; a-- > 0;) {
      if (++position[a] < out[a]) break;
      position[a] = 0;
    }
  }
  return index;
}

// The types whose values int64 holds exactly (u64 does not: its folding is refused).
bool IsInteger(DataType type) {
  switch (type) {
    case DataType::kInt8:
    case DataType::kUInt8:
    case DataType::kInt16:
    case DataType::kUInt16:
    case DataType::kInt32:
    case DataType::kUInt32:
    case DataType::kInt64:
    case DataType::kBool: return true;
    default: return false;
  }
}

void RefuseUInt64(const ConstantTensor& a) {
  if (a.type() == DataType::kUInt64) {
    throw Exception(ErrorCode::kUnsupported, "u64 constants are not folded (int64 and double hold them inexactly)");
  }
}

bool IsComparison(Binary op) {
  return op == Binary::kEqual || op == Binary::kLess || op == Binary::kGreater || op == Binary::kLessOrEqual ||
         op == Binary::kGreaterOrEqual || op == Binary::kAnd || op == Binary::kOr || op == Binary::kXor;
}

// The operations that read the same for integers and floats: max, min, comparisons (1 or 0)
// and logic (non-zero is true).
template <typename T>
T OrderOrLogic(Binary op, T a, T b) {
  switch (op) {
    case Binary::kMax: return std::max(a, b);
    case Binary::kMin: return std::min(a, b);
    case Binary::kEqual: return a == b;
    case Binary::kLess: return a < b;
    case Binary::kGreater: return a > b;
    case Binary::kLessOrEqual: return a <= b;
    case Binary::kGreaterOrEqual: return a >= b;
    case Binary::kAnd: return (a != 0) && (b != 0);
    case Binary::kOr: return (a != 0) || (b != 0);
    case Binary::kXor: return (a != 0) != (b != 0);
    default: break;
  }
  return 0;
}

std::int64_t IntBinary(Binary op, std::int64_t a, std::int64_t b) {
  switch (op) {
    case Binary::kAdd: return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) + static_cast<std::uint64_t>(b));
    case Binary::kSub: return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) - static_cast<std::uint64_t>(b));
    case Binary::kMul: return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
    case Binary::kDiv:
      if (b == 0) Invalid("integer division by zero");
      if (a == std::numeric_limits<std::int64_t>::min() && b == -1) return a;
      return a / b;
    case Binary::kMod:  // ONNX Mod with fmod=0: the sign of the divisor
    {
      if (b == 0) Invalid("integer modulo by zero");
      if (b == -1) return 0;
      const std::int64_t r = a % b;
      return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
    }
    case Binary::kPow: return IntegerPower(a, b);  // CpuRef's rule (element_types.hpp)
    default: return OrderOrLogic(op, a, b);
  }
}

double FloatBinary(Binary op, double a, double b) {
  switch (op) {
    case Binary::kAdd: return a + b;
    case Binary::kSub: return a - b;
    case Binary::kMul: return a * b;
    case Binary::kDiv: return a / b;
    case Binary::kMod: return std::fmod(a, b);
    case Binary::kPow: return std::pow(a, b);
    default: return OrderOrLogic(op, a, b);
  }
}

}  // namespace

Dims BroadcastShapes(const Dims& a, const Dims& b) {
  TensorShape out;
  std::string why;
  if (!backend::BroadcastShapes(TensorShape(a), TensorShape(b), out, why)) Invalid(why);
  return out.Dims();
}

std::size_t NormalizeAxis(std::int64_t axis, std::size_t rank) {
  std::size_t normalized = 0;
  if (!backend::NormalizeAxis(axis, rank, normalized)) {
    Invalid("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  }
  return normalized;
}

ConstantTensor ElementwiseBinary(Binary op, const ConstantTensor& a, const ConstantTensor& b, std::uint64_t max_bytes) {
  const bool logic = op == Binary::kAnd || op == Binary::kOr || op == Binary::kXor;
  if (a.type() != b.type() && op != Binary::kPow) {
    Invalid(std::string("inputs have different types: ") + ToString(a.type()) + " and " + ToString(b.type()));
  }
  if (logic && a.type() != DataType::kBool) Invalid("logic ops take bool inputs");
  RefuseUInt64(a);
  const Dims out = BroadcastShapes(a.shape().Dims(), b.shape().Dims());
  const DataType out_type = IsComparison(op) ? DataType::kBool : a.type();
  Allocate(out, out_type, max_bytes);  // size check only
  const auto ia = BroadcastIndex(a.shape().Dims(), out);
  const auto ib = BroadcastIndex(b.shape().Dims(), out);
  if (IsInteger(a.type()) && IsInteger(b.type())) {
    const auto va = a.ToInt64();
    const auto vb = b.ToInt64();
    std::vector<std::int64_t> result(ia.size());
    for (std::size_t i = 0; i < result.size(); ++i) result[i] = IntBinary(op, va[ia[i]], vb[ib[i]]);
    return ConstantTensor::FromInt64(TensorShape(out), result, out_type);
  }
  const auto va = a.AsDoubles();
  const auto vb = b.AsDoubles();
  std::vector<double> result(ia.size());
  for (std::size_t i = 0; i < result.size(); ++i) result[i] = FloatBinary(op, va[ia[i]], vb[ib[i]]);
  return ConstantTensor::FromDouble(TensorShape(out), result, out_type);
}

ConstantTensor ElementwiseUnary(Unary op, const ConstantTensor& a) {
  RefuseUInt64(a);
  if (op == Unary::kNot) {
    if (a.type() != DataType::kBool) Invalid("Not takes bool");
    auto values = a.ToInt64();
    for (auto& v : values) v = !v;
    return ConstantTensor::FromInt64(a.shape(), values, DataType::kBool);
  }
  if (IsInteger(a.type()) && (op == Unary::kNeg || op == Unary::kAbs || op == Unary::kRelu || op == Unary::kCeil ||
                              op == Unary::kFloor || op == Unary::kRound || op == Unary::kSign)) {
    auto values = a.ToInt64();
    for (auto& v : values) {
      if (op == Unary::kNeg) v = static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(v));
      if (op == Unary::kAbs) v = v < 0 ? static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(v)) : v;
      if (op == Unary::kRelu) v = std::max<std::int64_t>(v, 0);
      if (op == Unary::kSign) v = (v > 0) - (v < 0);
    }
    return ConstantTensor::FromInt64(a.shape(), values, a.type());
  }
  auto values = a.AsDoubles();
  for (auto& v : values) {
    switch (op) {
      case Unary::kNeg: v = -v; break;
      case Unary::kAbs: v = std::fabs(v); break;
      case Unary::kSqrt: v = std::sqrt(v); break;
      case Unary::kExp: v = std::exp(v); break;
      case Unary::kLog: v = std::log(v); break;
      case Unary::kReciprocal: v = 1.0 / v; break;
      case Unary::kErf: v = std::erf(v); break;
      case Unary::kCeil: v = std::ceil(v); break;
      case Unary::kFloor: v = std::floor(v); break;
      case Unary::kRelu: v = std::max(v, 0.0); break;
      case Unary::kSigmoid: v = 1.0 / (1.0 + std::exp(-v)); break;
      case Unary::kTanh: v = std::tanh(v); break;
      case Unary::kSin: v = std::sin(v); break;
      case Unary::kCos: v = std::cos(v); break;
      case Unary::kTan: v = std::tan(v); break;
      case Unary::kAsin: v = std::asin(v); break;
      case Unary::kAcos: v = std::acos(v); break;
      case Unary::kAtan: v = std::atan(v); break;
      case Unary::kSinh: v = std::sinh(v); break;
      case Unary::kCosh: v = std::cosh(v); break;
      case Unary::kAsinh: v = std::asinh(v); break;
      case Unary::kAcosh: v = std::acosh(v); break;
      case Unary::kAtanh: v = std::atanh(v); break;
      case Unary::kSign: v = v > 0 ? 1.0 : (v < 0 ? -1.0 : v); break;
      case Unary::kRound: v = std::nearbyint(v); break;  // halves to even
      case Unary::kNot: break;
    }
  }
  return ConstantTensor::FromDouble(a.shape(), values, a.type());
}

ConstantTensor Where(const ConstantTensor& condition, const ConstantTensor& x, const ConstantTensor& y,
                     std::uint64_t max_bytes) {
  if (condition.type() != DataType::kBool) Invalid("Where's condition must be bool");
  if (x.type() != y.type()) Invalid(std::string("Where's X and Y have different types: ") + ToString(x.type()) + " and " + ToString(y.type()));
  const Dims out = BroadcastShapes(BroadcastShapes(condition.shape().Dims(), x.shape().Dims()), y.shape().Dims());
  auto bytes = Allocate(out, x.type(), max_bytes);
  const std::size_t size = SizeOf(x.type());
  const auto ic = BroadcastIndex(condition.shape().Dims(), out);
  const auto ix = BroadcastIndex(x.shape().Dims(), out);
  const auto iy = BroadcastIndex(y.shape().Dims(), out);
  for (std::size_t i = 0; i < ic.size(); ++i) {
    const bool pick_x = condition.data()[ic[i]] != 0;
    const std::uint8_t* source = pick_x ? x.data() + ix[i] * size : y.data() + iy[i] * size;
    std::memcpy(bytes->data() + i * size, source, size);
  }
  return ConstantTensor({TensorShape(out), x.type()}, std::move(bytes));
}

// Element by element with the SDK's one conversion rule (ConvertElement), as the
// backends' Cast kernels convert.
ConstantTensor Cast(const ConstantTensor& a, DataType to) {
  if (a.type() == to) return a;
  const std::size_t n = a.NumElements();
  auto bytes = std::make_shared<std::vector<std::uint8_t>>(n * SizeOf(to));
  VisitElementType(a.type(), [&](auto from) {
    VisitElementType(to, [&](auto target) {
      using From = decltype(from);
      using To = decltype(target);
      for (std::size_t i = 0; i < n; ++i) {
        StoreElement<To>(bytes->data(), i, ConvertElement<To>(LoadElement<From>(a.data(), i)));
      }
    });
  });
  return ConstantTensor({a.shape(), to}, std::move(bytes));
}

ConstantTensor Gather(const ConstantTensor& data, const ConstantTensor& indices, std::int64_t axis,
                      std::uint64_t max_bytes) {
  GatherDescriptor descriptor;
  descriptor.axis = Narrow<std::int32_t>(axis, "Gather axis");
  const Dims out = SchemaShapes(descriptor, {&data, &indices})[0];
  const Dims& x = data.shape().Dims();
  const std::size_t a = NormalizeAxis(axis, x.size());
  auto bytes = Allocate(out, data.type(), max_bytes);
  std::int64_t outer = 1, inner = 1;
  for (std::size_t i = 0; i < a; ++i) outer *= x[i];
  for (std::size_t i = a + 1; i < x.size(); ++i) inner *= x[i];
  const std::size_t block = static_cast<std::size_t>(inner) * SizeOf(data.type());
  const auto idx = indices.ToInt64();
  std::uint8_t* target = bytes->data();
  for (std::int64_t o = 0; o < outer; ++o) {
    for (const std::int64_t raw : idx) {
      const std::int64_t i = raw < 0 ? raw + x[a] : raw;
      if (i < 0 || i >= x[a]) Invalid("Gather index " + std::to_string(raw) + " is out of range for axis of length " + std::to_string(x[a]));
      std::memcpy(target, data.data() + static_cast<std::size_t>(o * x[a] + i) * block, block);
      target += block;
    }
  }
  return ConstantTensor({TensorShape(out), data.type()}, std::move(bytes));
}

ConstantTensor Slice(const ConstantTensor& data, const Dims& starts, const Dims& ends, const Dims& axes,
                     const Dims& steps) {
  SliceDescriptor descriptor;
  descriptor.starts = starts;
  descriptor.ends = ends;
  descriptor.axes = Narrow<std::int32_t>(axes, "Slice axis");
  descriptor.steps = steps;
  const Dims out = SchemaShapes(descriptor, {&data})[0];
  const Dims& x = data.shape().Dims();
  const std::size_t rank = x.size();
  Dims begin(rank, 0), step(rank, 1);
  for (std::size_t i = 0; i < starts.size(); ++i) {
    const std::size_t a = NormalizeAxis(axes.empty() ? static_cast<std::int64_t>(i) : axes[i], rank);
    const backend::SliceAxis window = backend::SliceWindow(x[a], starts[i], ends[i], steps.empty() ? 1 : steps[i]);
    begin[a] = window.start;
    step[a] = window.step;
  }
  const std::size_t size = SizeOf(data.type());
  auto bytes = std::make_shared<std::vector<std::uint8_t>>(static_cast<std::size_t>(TensorShape(out).NumElements()) * size);
  const Dims in_strides = Strides(x);
  Dims position(rank, 0);
  for (std::size_t flat = 0; flat * size < bytes->size(); ++flat) {
    std::int64_t source = 0;
    for (std::size_t a = 0; a < rank; ++a) source += (begin[a] + position[a] * step[a]) * in_strides[a];
    std::memcpy(bytes->data() + flat * size, data.data() + static_cast<std::size_t>(source) * size, size);
    for (std::size_t a = rank; a-- > 0;) {
      if (++position[a] < out[a]) break;
      position[a] = 0;
    }
  }
  return ConstantTensor({TensorShape(out), data.type()}, std::move(bytes));
}

ConstantTensor Concat(const std::vector<const ConstantTensor*>& inputs, std::int64_t axis, std::uint64_t max_bytes) {
  ConcatDescriptor descriptor;
  descriptor.axis = Narrow<std::int32_t>(axis, "Concat axis");
  const Dims out = SchemaShapes(descriptor, inputs)[0];
  const Dims& first = inputs[0]->shape().Dims();
  const std::size_t a = NormalizeAxis(axis, first.size());
  auto bytes = Allocate(out, inputs[0]->type(), max_bytes);
  std::int64_t outer = 1;
  for (std::size_t i = 0; i < a; ++i) outer *= first[i];
  std::uint8_t* target = bytes->data();
  for (std::int64_t o = 0; o < outer; ++o) {
    for (const auto* input : inputs) {
      const std::size_t block = input->bytes()->size() / static_cast<std::size_t>(std::max<std::int64_t>(outer, 1));
      if (block) std::memcpy(target, input->data() + static_cast<std::size_t>(o) * block, block);
      target += block;
    }
  }
  return ConstantTensor({TensorShape(out), inputs[0]->type()}, std::move(bytes));
}

ConstantTensor Transpose(const ConstantTensor& a, const Dims& permutation) {
  const Dims& x = a.shape().Dims();
  TransposeDescriptor descriptor;
  descriptor.permutation = Narrow<std::uint32_t>(permutation, "Transpose perm entry");
  const Dims out = SchemaShapes(descriptor, {&a})[0];
  Dims perm = permutation;
  if (perm.empty()) {
    for (std::size_t i = x.size(); i-- > 0;) perm.push_back(static_cast<std::int64_t>(i));
  }
  const Dims in_strides = Strides(x);
  const std::size_t size = SizeOf(a.type());
  auto bytes = std::make_shared<std::vector<std::uint8_t>>(a.bytes()->size());
  Dims position(out.size(), 0);
  for (std::size_t flat = 0; flat * size < bytes->size(); ++flat) {
    std::int64_t source = 0;
    for (std::size_t i = 0; i < out.size(); ++i) source += position[i] * in_strides[static_cast<std::size_t>(perm[i])];
    std::memcpy(bytes->data() + flat * size, a.data() + static_cast<std::size_t>(source) * size, size);
    for (std::size_t i = out.size(); i-- > 0;) {
      if (++position[i] < out[i]) break;
      position[i] = 0;
    }
  }
  return ConstantTensor({TensorShape(out), a.type()}, std::move(bytes));
}

ConstantTensor Expand(const ConstantTensor& a, const Dims& shape, std::uint64_t max_bytes) {
  const Dims out = BroadcastShapes(a.shape().Dims(), shape);
  auto bytes = Allocate(out, a.type(), max_bytes);
  const std::size_t size = SizeOf(a.type());
  const auto index = BroadcastIndex(a.shape().Dims(), out);
  for (std::size_t i = 0; i < index.size(); ++i) std::memcpy(bytes->data() + i * size, a.data() + index[i] * size, size);
  return ConstantTensor({TensorShape(out), a.type()}, std::move(bytes));
}

ConstantTensor Tile(const ConstantTensor& a, const Dims& repeats, std::uint64_t max_bytes) {
  const Dims& x = a.shape().Dims();
  if (repeats.size() != x.size()) Invalid("Tile needs one repeat per axis (" + std::to_string(x.size()) + "), got " + std::to_string(repeats.size()));
  Dims out(x.size());
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (repeats[i] < 0) Invalid("Tile repeats must not be negative");
    out[i] = CheckedMulDims(x[i], repeats[i], "Tile axis " + std::to_string(i));
  }
  auto bytes = Allocate(out, a.type(), max_bytes);
  const std::size_t size = SizeOf(a.type());
  const Dims in_strides = Strides(x);
  Dims position(out.size(), 0);
  for (std::size_t flat = 0; flat * size < bytes->size(); ++flat) {
    std::int64_t source = 0;
    for (std::size_t i = 0; i < out.size(); ++i) source += (position[i] % x[i]) * in_strides[i];
    std::memcpy(bytes->data() + flat * size, a.data() + static_cast<std::size_t>(source) * size, size);
    for (std::size_t i = out.size(); i-- > 0;) {
      if (++position[i] < out[i]) break;
      position[i] = 0;
    }
  }
  return ConstantTensor({TensorShape(out), a.type()}, std::move(bytes));
}

ConstantTensor ScatterND(const ConstantTensor& data, const ConstantTensor& indices, const ConstantTensor& updates) {
  const Dims& x = data.shape().Dims();
  const Dims& ix = indices.shape().Dims();
  if (ix.empty()) Invalid("ScatterND indices must have rank 1 or more, are a scalar");
  const std::size_t depth = static_cast<std::size_t>(ix.back());
  if (depth > x.size()) Invalid("ScatterND indices address " + std::to_string(depth) + " axes of data " + Str(x));
  Dims expected(ix.begin(), ix.end() - 1);
  expected.insert(expected.end(), x.begin() + static_cast<std::ptrdiff_t>(depth), x.end());
  if (updates.shape().Dims() != expected) {
    Invalid("ScatterND updates " + Str(updates.shape().Dims()) + " must be " + Str(expected) + " for data " + Str(x) +
            " and indices " + Str(ix));
  }
  if (updates.type() != data.type()) Invalid("ScatterND updates must have the type of data");
  auto bytes = std::make_shared<std::vector<std::uint8_t>>(*data.bytes());
  const std::size_t size = SizeOf(data.type());
  const Dims strides = Strides(x);
  std::size_t slice = 1;
  for (std::size_t a = depth; a < x.size(); ++a) slice *= static_cast<std::size_t>(x[a]);
  const std::vector<std::int64_t> index = indices.ToInt64();
  const std::size_t count = depth == 0 ? 1 : index.size() / depth;
  for (std::size_t u = 0; u < count; ++u) {
    std::int64_t offset = 0;
    for (std::size_t a = 0; a < depth; ++a) {
      std::int64_t i = index[u * depth + a];
      if (i < -x[a] || i >= x[a]) {
        Invalid("ScatterND index " + std::to_string(i) + " is out of range for axis " + std::to_string(a) + " of data " + Str(x));
      }
      offset += (i < 0 ? i + x[a] : i) * strides[a];
    }
    std::memcpy(bytes->data() + static_cast<std::size_t>(offset) * size, updates.data() + u * slice * size, slice * size);
  }
  return ConstantTensor(data.info(), std::move(bytes));
}

std::vector<ConstantTensor> Split(const ConstantTensor& a, std::int64_t axis, const Dims& sizes) {
  SplitDescriptor descriptor;
  descriptor.axis = Narrow<std::int32_t>(axis, "Split axis");
  descriptor.sizes = sizes;
  if (sizes.empty()) Invalid("Split needs its sizes when folded");
  SchemaShapes(descriptor, {&a}, sizes.size());  // the rules only: the slices below are the parts
  const std::size_t ax = NormalizeAxis(axis, a.shape().Rank());
  std::vector<ConstantTensor> outputs;
  std::int64_t offset = 0;
  for (const std::int64_t size : sizes) {
    Dims axes{static_cast<std::int64_t>(ax)};
    outputs.push_back(Slice(a, {offset}, {offset + size}, axes, {}));
    offset += size;
  }
  return outputs;
}

ConstantTensor Reduce(const ConstantTensor& a, const Dims& axes, bool keep_dims, ReduceOperation operation) {
  namespace reduction = backend::reduction;
  ReduceDescriptor descriptor;
  descriptor.operation = operation;
  descriptor.axes = Narrow<std::int32_t>(axes, "Reduce axis");
  descriptor.keep_dims = keep_dims;
  const Dims out = SchemaShapes(descriptor, {&a})[0];
  const Dims& x = a.shape().Dims();
  std::vector<bool> reduced(x.size(), axes.empty());
  for (const auto axis : axes) reduced[NormalizeAxis(axis, x.size())] = true;
  Dims kept;
  std::int64_t per_output = 1;
  for (std::size_t i = 0; i < x.size(); ++i) {
    kept.push_back(reduced[i] ? 1 : x[i]);
    if (reduced[i]) per_output *= x[i];
  }
  const auto count = static_cast<std::size_t>(TensorShape(kept).NumElements());
  const auto values = a.AsDoubles();
  const Dims kept_strides = Strides(kept);
  // acc[o] = Start, then Add of each element of output o (its index: `kept` broadcast to `x`).
  const auto accumulate = [&](ReduceOperation op, const std::vector<double>& shift) {
    std::vector<double> acc(count, reduction::Start(op));
    Dims position(x.size(), 0);
    for (std::size_t flat = 0; flat < values.size(); ++flat) {
      std::size_t target = 0;
      for (std::size_t i = 0; i < x.size(); ++i) {
        target += static_cast<std::size_t>((reduced[i] ? 0 : position[i]) * kept_strides[i]);
      }
      acc[target] = reduction::Add(op, acc[target], values[flat], shift.empty() ? 0.0 : shift[target]);
      for (std::size_t i = x.size(); i-- > 0;) {
        if (++position[i] < x[i]) break;
        position[i] = 0;
      }
    }
    return acc;
  };
  std::vector<double> shift;
  if (reduction::NeedsShift(operation)) {
    shift = accumulate(ReduceOperation::kMax, {});
    for (double& value : shift) value = reduction::Shift(value);
  }
  std::vector<double> result = accumulate(operation, shift);
  for (std::size_t o = 0; o < count; ++o) {
    result[o] = reduction::Finish(operation, result[o], per_output, shift.empty() ? 0.0 : shift[o]);
    if (IsInteger(a.type()) && !std::isfinite(result[o])) {
      Invalid("a Reduce of integers gives " + std::to_string(result[o]) + ", which the integer type cannot hold");
    }
  }
  return ConstantTensor::FromDouble(TensorShape(out), result, a.type());
}

ConstantTensor Range(const ConstantTensor& start, const ConstantTensor& limit, const ConstantTensor& delta,
                     std::uint64_t max_bytes) {
  if (start.NumElements() != 1 || limit.NumElements() != 1 || delta.NumElements() != 1) {
    Invalid("Range's start, limit and delta must be scalars");
  }
  const DataType type = start.type();
  if (IsInteger(type)) {
    const std::int64_t s = start.ToInt64()[0], l = limit.ToInt64()[0], d = delta.ToInt64()[0];
    if (d == 0) Invalid("Range's delta must not be 0");
    const double n = std::ceil((static_cast<double>(l) - static_cast<double>(s)) / static_cast<double>(d));
    const std::int64_t count = n > 0 ? static_cast<std::int64_t>(std::min(n, 9.0e18)) : 0;
    Allocate({count}, type, max_bytes);
    std::vector<std::int64_t> values(static_cast<std::size_t>(count));
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = s + static_cast<std::int64_t>(i) * d;
    return ConstantTensor::FromInt64(TensorShape{count}, values, type);
  }
  const double s = start.AsDoubles()[0], l = limit.AsDoubles()[0], d = delta.AsDoubles()[0];
  if (d == 0 || !std::isfinite(s) || !std::isfinite(l) || !std::isfinite(d)) Invalid("Range's arguments must be finite and delta non-zero");
  const double n = std::ceil((l - s) / d);
  const std::int64_t count = n > 0 ? static_cast<std::int64_t>(std::min(n, 9.0e18)) : 0;
  Allocate({count}, type, max_bytes);
  std::vector<double> values(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = s + static_cast<double>(i) * d;
  return ConstantTensor::FromDouble(TensorShape{count}, values, type);
}

ConstantTensor ConstantOfShape(const Dims& shape, const ConstantTensor& value, std::uint64_t max_bytes) {
  if (value.NumElements() != 1) Invalid("ConstantOfShape's value must have one element");
  for (const auto d : shape) {
    if (d < 0) Invalid("ConstantOfShape's shape " + Str(shape) + " has a negative dimension");
  }
  auto bytes = Allocate(shape, value.type(), max_bytes);
  const std::size_t size = SizeOf(value.type());
  for (std::size_t i = 0; i < bytes->size(); i += size) std::memcpy(bytes->data() + i, value.data(), size);
  return ConstantTensor({TensorShape(shape), value.type()}, std::move(bytes));
}

Dims ReshapeTarget(const Dims& input, const Dims& target) {
  ReshapeDescriptor descriptor;
  descriptor.shape = target;
  const backend::LayerValues layer(LayerType::kReshape, "", &descriptor, {{TensorShape(input), DataType::kFloat32}},
                                   {TensorInfo{}});
  std::vector<TensorInfo> outputs;
  std::string why;
  if (!backend::InferOutputs(layer, outputs, why)) Invalid(why);
  return outputs[0].shape.Dims();
}

// ---- Data-dependent extents -------------------------------------------------------------------

namespace {

// Whether element i of `x` is non-zero (NaN is; -0 is not).
bool NonZeroAt(const ConstantTensor& x, std::size_t i) {
  return VisitElementType(x.type(), [&](auto element) {
    using T = decltype(element);
    if constexpr (kIsFloat16Element<T>) {
      return ConvertElement<float>(LoadElement<T>(x.data(), i)) != 0.0f;
    } else {
      return LoadElement<T>(x.data(), i) != T{};
    }
  });
}

// x's extents around `axis`, or (1, numel, 1) when absent.
backend::AxisExtents ExtentsOf(const ConstantTensor& x, std::optional<std::int64_t> axis) {
  if (axis) NormalizeAxis(*axis, x.shape().Rank());  // throws naming the axis and the rank
  return backend::ExtentsOfSlices(x.shape(), axis.has_value(), axis.value_or(0));
}

// The slices `picked` of x along the extents' axis, in that order: x's shape with the axis'
// length picked.size() (1-D when `axis` is absent).
ConstantTensor PickSlices(const ConstantTensor& x, std::optional<std::int64_t> axis, const backend::AxisExtents& e,
                          const Dims& picked) {
  Dims out{static_cast<std::int64_t>(picked.size())};
  if (axis) {
    out = x.shape().Dims();
    out[NormalizeAxis(*axis, out.size())] = static_cast<std::int64_t>(picked.size());
  }
  auto bytes = Allocate(out, x.type(), std::numeric_limits<std::uint64_t>::max());  // at most x's size
  const std::size_t block = static_cast<std::size_t>(e.inner) * SizeOf(x.type());
  std::uint8_t* target = bytes->data();
  for (std::int64_t o = 0; o < e.outer; ++o) {
    for (const std::int64_t i : picked) {
      std::memcpy(target, x.data() + static_cast<std::size_t>(o * e.length + i) * block, block);
      target += block;
    }
  }
  return ConstantTensor({TensorShape(out), x.type()}, std::move(bytes));
}

// -1, 0 or 1 as slice a of x orders before, with or after slice b (lexicographic in C order,
// element by element as backend::CompareUniqueElements orders them).
template <typename T>
int CompareSlices(const ConstantTensor& x, const backend::AxisExtents& e, std::int64_t a, std::int64_t b) {
  for (std::int64_t o = 0; o < e.outer; ++o) {
    for (std::int64_t k = 0; k < e.inner; ++k) {
      const int order =
          backend::CompareUniqueElements(LoadElement<T>(x.data(), static_cast<std::size_t>((o * e.length + a) * e.inner + k)),
                                         LoadElement<T>(x.data(), static_cast<std::size_t>((o * e.length + b) * e.inner + k)));
      if (order != 0) return order;
    }
  }
  return 0;
}

}  // namespace

ConstantTensor NonZero(const ConstantTensor& x) {
  const Dims& dims = x.shape().Dims();
  if (dims.empty()) Invalid("NonZero needs an input of rank 1 or more, has a scalar");
  const Dims strides = Strides(dims);
  Dims positions;
  for (std::size_t i = 0; i < x.NumElements(); ++i) {
    if (NonZeroAt(x, i)) positions.push_back(static_cast<std::int64_t>(i));
  }
  Dims values(dims.size() * positions.size());
  for (std::size_t r = 0; r < dims.size(); ++r) {
    for (std::size_t j = 0; j < positions.size(); ++j) values[r * positions.size() + j] = positions[j] / strides[r] % dims[r];
  }
  return ConstantTensor::FromInt64(TensorShape{static_cast<std::int64_t>(dims.size()), static_cast<std::int64_t>(positions.size())}, values);
}

ConstantTensor Compress(const ConstantTensor& x, const ConstantTensor& condition, std::optional<std::int64_t> axis) {
  if (condition.type() != DataType::kBool || condition.shape().Rank() != 1) {
    Invalid("Compress condition must be a 1-D bool tensor, is " + std::string(ToString(condition.type())) + " " +
            ToString(condition.shape()));
  }
  const backend::AxisExtents e = ExtentsOf(x, axis);
  Dims picked;
  for (std::int64_t i = 0; i < std::min<std::int64_t>(e.length, condition.shape().NumElements()); ++i) {
    if (condition.data()[i]) picked.push_back(i);
  }
  return PickSlices(x, axis, e, picked);
}

std::vector<ConstantTensor> Unique(const ConstantTensor& x, bool sorted, std::optional<std::int64_t> axis) {
  if (!IsArithmeticType(x.type())) {
    throw Exception(ErrorCode::kUnsupported, std::string("Unique folds numbers, not ") + ToString(x.type()));
  }
  const backend::AxisExtents e = ExtentsOf(x, axis);
  const auto compare = [&](std::int64_t a, std::int64_t b) {
    return VisitElementType(x.type(), [&](auto element) {
      if constexpr (kIsArithmeticElement<decltype(element)>) {
        return CompareSlices<decltype(element)>(x, e, a, b);
      } else {
        return 0;  // not reached: numbers only
      }
    });
  };
  const backend::UniqueSlices unique = backend::GroupUniqueSlices(e.length, sorted, compare);
  const TensorShape per_group{static_cast<std::int64_t>(unique.first.size())};
  return {PickSlices(x, axis, e, unique.first), ConstantTensor::FromInt64(per_group, unique.first),
          ConstantTensor::FromInt64(TensorShape{e.length}, unique.inverse), ConstantTensor::FromInt64(per_group, unique.counts)};
}

}  // namespace backplane::onnx::folding
