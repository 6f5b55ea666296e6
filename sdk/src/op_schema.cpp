#include <backplane/backend/broadcast.hpp>
#include <backplane/backend/op_attributes.hpp>
#include <backplane/backend/op_geometry.hpp>
#include <backplane/backend/op_schema.hpp>
#include <backplane/checked_size.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/element_types.hpp>

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <utility>

namespace backplane::backend {

namespace {

using Dims = std::vector<std::int64_t>;

// A broken rule: thrown by Rules::Fail inside this file only and turned into `why` by the
// public functions, so each rule below reads as a list of checks.
struct Broken {
  std::string why;
};

std::string Text(const Dims& dims) { return ToString(TensorShape(dims)); }

template <typename T>
std::string ListText(const std::vector<T>& values) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) text += (i ? "," : "") + std::to_string(values[i]);
  return text + "]";
}

std::string Count(std::size_t n, const char* noun) {
  return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

// The checks every rule is made of; each failure throws Broken with the plain reason.
class Rules {
 public:
  explicit Rules(const ILayerView& layer) : layer_(layer) {}

  [[noreturn]] static void Fail(std::string why) { throw Broken{std::move(why)}; }

  std::size_t Inputs() const { return layer_.GetNumInputs(); }
  const TensorInfo& In(std::size_t i) const { return layer_.GetInputInfo(i); }
  const Dims& Shape(std::size_t i) const { return In(i).shape.Dims(); }
  std::string InText(std::size_t i) const { return ToString(In(i).shape); }

  // [min_inputs, max_inputs] inputs and exactly `outputs` outputs.
  void Arity(std::size_t min_inputs, std::size_t max_inputs, std::size_t outputs = 1) const {
    const std::size_t n = Inputs();
    if (n < min_inputs || n > max_inputs) {
      Fail("takes " +
           (min_inputs == max_inputs ? Count(min_inputs, "input")
                                     : std::to_string(min_inputs) + " to " + Count(max_inputs, "input")) +
           ", has " + std::to_string(n));
    }
    if (layer_.GetNumOutputs() != outputs) {
      Fail("has " + Count(outputs, "output") + ", this layer has " + std::to_string(layer_.GetNumOutputs()));
    }
  }

  void Rank(std::size_t i, std::size_t rank, const char* what) const {
    if (Shape(i).size() != rank) {
      Fail(std::string(what) + " (input " + std::to_string(i) + ") must have rank " + std::to_string(rank) +
           ", has shape " + InText(i));
    }
  }

  // `axis` in [-rank, rank) (or up to rank inclusive when `allow_rank`), normalized.
  std::size_t Axis(std::int64_t axis, std::size_t rank, bool allow_rank = false) const {
    const auto r = static_cast<std::int64_t>(rank);
    const std::int64_t upper = allow_rank ? r : r - 1;
    if (axis < -r || axis > upper) {
      Fail("axis " + std::to_string(axis) + " is out of range [" + std::to_string(-r) + ", " + std::to_string(upper) +
           "] for input " + InText(0) + " of rank " + std::to_string(rank));
    }
    return static_cast<std::size_t>(axis < 0 ? axis + r : axis);
  }

  template <typename D>
  const D& Descriptor() const {
    if (!layer_.GetDescriptor()) Fail("has no descriptor");
    return static_cast<const D&>(*layer_.GetDescriptor());
  }

  // An enumerator of a descriptor: one of its enumeration's values (op_attributes.def).
  template <typename E>
  void Known(E value) const {
    if (static_cast<std::uint32_t>(value) >= BpEnum<E>::kCount) {
      Fail(std::string("unknown ") + BpEnum<E>::kWhat + " " + std::to_string(static_cast<std::uint32_t>(value)));
    }
  }

  void KnownType(DataType type, const std::string& what) const {
    if (SizeOf(type) == 0) Fail("unknown data type " + std::to_string(static_cast<std::uint32_t>(type)) + " of " + what);
  }

  std::int64_t Mul(std::int64_t a, std::int64_t b) const {
    if (const auto product = TryMulDims(a, b)) return *product;
    Fail(std::to_string(a) + " * " + std::to_string(b) + " overflows a 64-bit dimension");
  }
  std::int64_t Add(std::int64_t a, std::int64_t b) const {
    if (const auto sum = TryAddDims(a, b)) return *sum;
    Fail(std::to_string(a) + " + " + std::to_string(b) + " overflows a 64-bit dimension");
  }

  const ILayerView& layer() const { return layer_; }

 private:
  const ILayerView& layer_;
};

Dims Broadcast(const Dims& a, const Dims& b) {
  TensorShape out;
  std::string why;
  if (!BroadcastShapes(TensorShape(a), TensorShape(b), out, why)) Rules::Fail(why);
  return out.Dims();
}

// One spatial output extent of a convolution or pooling window.
std::int64_t Window(const char* axis, std::int64_t size, std::int64_t pad_begin, std::int64_t pad_end,
                    std::int64_t kernel, std::int64_t stride, std::int64_t dilation, bool ceil_mode) {
  if (kernel < 1 || stride < 1 || dilation < 1) {
    Rules::Fail(std::string("kernel ") + std::to_string(kernel) + ", stride " + std::to_string(stride) +
                " and dilation " + std::to_string(dilation) + " along " + axis + " must be at least 1");
  }
  std::int64_t out = 0;
  if (!WindowOutputExtent(size, pad_begin, pad_end, kernel, stride, dilation, ceil_mode, out)) {
    Rules::Fail(std::string("the window along ") + axis + " (kernel " + std::to_string(kernel) + ", dilation " +
                std::to_string(dilation) + ") does not fit the input's " + std::to_string(size) + " padded by " +
                std::to_string(pad_begin) + " and " + std::to_string(pad_end));
  }
  return out;
}

// A float convolution's optional bias: input 2, [M] for weights [M, ...].
void RequireConvolutionBias(const Rules& r) {
  const std::int64_t m = r.Shape(1)[0];
  if (r.Inputs() == 3 && r.Shape(2) != Dims{m}) {
    Rules::Fail("bias " + r.InText(2) + " must be [" + std::to_string(m) + "], one per output channel");
  }
}

// A convolution's channels: x [N, C, ...], weights [M, C/groups, ...], groups of at least 1
// dividing C and M.
void RequireConvolutionChannels(const Rules& r, std::uint32_t group_count) {
  const Dims& x = r.Shape(0);
  const Dims& w = r.Shape(1);
  if (group_count == 0) Rules::Fail("groups must be at least 1");
  const std::int64_t groups = group_count;
  if (x[1] % groups != 0) {
    Rules::Fail("input channels " + std::to_string(x[1]) + " are not divisible by groups " + std::to_string(groups));
  }
  if (w[0] % groups != 0) {
    Rules::Fail("output channels " + std::to_string(w[0]) + " are not divisible by groups " + std::to_string(groups));
  }
  if (w[1] != x[1] / groups) {
    Rules::Fail("weights " + r.InText(1) + " need C/groups = " + std::to_string(x[1] / groups) +
                " in dimension 1 for input " + r.InText(0) + " in " + Count(group_count, "group"));
  }
}

std::vector<TensorInfo> Convolution2d(const Rules& r) {
  r.Arity(2, 3);
  r.Rank(0, 4, "x [N, C, H, W]");
  r.Rank(1, 4, "weights [M, C/groups, kH, kW]");
  const auto& d = r.Descriptor<Convolution2dDescriptor>();
  const Dims& x = r.Shape(0);
  const Dims& w = r.Shape(1);
  RequireConvolutionChannels(r, d.groups);
  RequireConvolutionBias(r);
  const std::int64_t ho = Window("H", x[2], d.pads[0], d.pads[2], w[2], d.strides[0], d.dilations[0], false);
  const std::int64_t wo = Window("W", x[3], d.pads[1], d.pads[3], w[3], d.strides[1], d.dilations[1], false);
  return {{TensorShape{x[0], w[0], ho, wo}, r.In(0).type}};
}

// x [N, C, D1..DS] with S = 1 to 3 spatial axes (rank 3 to 5); returns S.
std::size_t SpatialRank(const Rules& r) {
  const std::size_t rank = r.Shape(0).size();
  if (rank < 3 || rank > 5) {
    Rules::Fail("x [N, C, D1..DS] must have 1 to 3 spatial axes (rank 3 to 5), has shape " + r.InText(0));
  }
  return rank - 2;
}

// The window lists of an N-D convolution or pooling: S entries each, pads 2S.
struct NamedList {
  const char* name;
  const std::vector<std::uint32_t>& values;
};
void RequireWindowLists(const Rules& r, std::size_t rank, std::initializer_list<NamedList> lists,
                        const std::vector<std::uint32_t>& pads) {
  bool fits = pads.size() == 2 * rank;
  std::string texts;
  std::size_t i = 0;
  for (const NamedList& list : lists) {
    fits = fits && list.values.size() == rank;
    texts += std::string(i == 0 ? "" : i + 1 == lists.size() ? " and " : ", ") + list.name + " " + ListText(list.values);
    ++i;
  }
  if (!fits) {
    Rules::Fail(texts + " need " + std::to_string(rank) + " entries each and pads " + ListText(pads) + " " +
                std::to_string(2 * rank) + ", one per spatial axis of input " + r.InText(0));
  }
}

// The name of spatial axis `a` in messages.
std::string SpatialAxisName(std::size_t a) { return "spatial axis " + std::to_string(a); }

// The output shape [N, M, O1..OS] of an N-D convolution (ConvolutionNd, ConvolutionInteger):
// x [N, C, D1..DS], weights [M, C/groups, k1..kS], the descriptor's lists and groups.
template <typename Descriptor>
Dims ConvolutionNdShape(const Rules& r, const Descriptor& d) {
  const std::size_t rank = SpatialRank(r);
  const Dims& x = r.Shape(0);
  r.Rank(1, x.size(), "weights [M, C/groups, k1..kS]");
  const Dims& w = r.Shape(1);
  RequireWindowLists(r, rank, {{"strides", d.strides}, {"dilations", d.dilations}}, d.pads);
  RequireConvolutionChannels(r, d.groups);
  Dims out{x[0], w[0]};
  for (std::size_t a = 0; a < rank; ++a) {
    out.push_back(Window(SpatialAxisName(a).c_str(), x[2 + a], d.pads[a], d.pads[rank + a], w[2 + a], d.strides[a],
                         d.dilations[a], false));
  }
  return out;
}

std::vector<TensorInfo> ConvolutionNd(const Rules& r) {
  r.Arity(2, 3);
  const auto& d = r.Descriptor<ConvolutionNdDescriptor>();
  const Dims out = ConvolutionNdShape(r, d);
  RequireConvolutionBias(r);
  return {{TensorShape(out), r.In(0).type}};
}

// The integer ops' data input i (named `what`): i8 or u8.
void RequireEightBitInteger(const Rules& r, std::size_t i, const char* what) {
  const DataType type = r.In(i).type;
  if (type != DataType::kInt8 && type != DataType::kUInt8) {
    Rules::Fail(std::string(what) + " (input " + std::to_string(i) + ") must be i8 or u8, is " + ToString(type));
  }
}

// The integer ops' zero point input i (named `what`) of data input `data`: the data's type.
void RequireZeroPointType(const Rules& r, std::size_t i, std::size_t data, const char* what) {
  if (r.In(i).type != r.In(data).type) {
    Rules::Fail(std::string(what) + " (input " + std::to_string(i) + ") must have input " + std::to_string(data) +
                "'s type " + ToString(r.In(data).type) + ", is " + ToString(r.In(i).type));
  }
}

// Whether input i holds one value ([] or [1]).
bool IsOneValue(const Rules& r, std::size_t i) {
  return r.Shape(i).size() <= 1 && r.In(i).shape.NumElements() == 1;
}

std::vector<TensorInfo> ConvolutionInteger(const Rules& r) {
  r.Arity(2, 4);
  RequireEightBitInteger(r, 0, "x");
  RequireEightBitInteger(r, 1, "weights");
  const Dims out = ConvolutionNdShape(r, r.Descriptor<ConvolutionIntegerDescriptor>());
  if (r.Inputs() > 2) {
    RequireZeroPointType(r, 2, 0, "x_zero_point");
    if (!IsOneValue(r, 2)) Rules::Fail("x_zero_point " + r.InText(2) + " must be one value ([] or [1])");
  }
  if (r.Inputs() > 3) {
    RequireZeroPointType(r, 3, 1, "w_zero_point");
    if (!IsOneValue(r, 3) && r.Shape(3) != Dims{out[1]}) {
      Rules::Fail("w_zero_point " + r.InText(3) + " must be one value or [" + std::to_string(out[1]) +
                  "], one per output channel");
    }
  }
  return {{TensorShape(out), DataType::kInt32}};
}

// One spatial output extent of a transposed convolution:
// stride * (size - 1) + output_padding + (kernel - 1) * dilation + 1 - pad_begin - pad_end.
std::int64_t TransposedExtent(const Rules& r, std::size_t axis, std::int64_t size, std::int64_t kernel,
                              const ConvolutionTransposeDescriptor& d) {
  const std::size_t rank = d.strides.size();
  const std::int64_t stride = d.strides[axis], dilation = d.dilations[axis];
  const std::string where = SpatialAxisName(axis);
  if (size < 1 || kernel < 1 || stride < 1 || dilation < 1) {
    Rules::Fail("input extent " + std::to_string(size) + ", kernel " + std::to_string(kernel) + ", stride " +
                std::to_string(stride) + " and dilation " + std::to_string(dilation) + " along " + where +
                " must be at least 1");
  }
  const std::int64_t full = r.Add(r.Add(r.Mul(stride, size - 1), d.output_padding[axis]),
                                  r.Add(r.Mul(kernel - 1, dilation), 1));
  const std::int64_t out = full - d.pads[axis] - d.pads[rank + axis];
  if (out < 1) {
    Rules::Fail("pads " + std::to_string(d.pads[axis]) + " and " + std::to_string(d.pads[rank + axis]) + " along " +
                where + " leave nothing of its extent " + std::to_string(full));
  }
  return out;
}

std::vector<TensorInfo> ConvolutionTranspose(const Rules& r) {
  r.Arity(2, 3);
  const auto& d = r.Descriptor<ConvolutionTransposeDescriptor>();
  const std::size_t rank = SpatialRank(r);
  const Dims& x = r.Shape(0);
  r.Rank(1, x.size(), "weights [C, M/groups, k1..kS]");
  const Dims& w = r.Shape(1);
  RequireWindowLists(r, rank,
                     {{"strides", d.strides}, {"dilations", d.dilations}, {"output_padding", d.output_padding}},
                     d.pads);
  if (d.groups == 0) Rules::Fail("groups must be at least 1");
  const std::int64_t groups = d.groups;
  if (x[1] % groups != 0) {
    Rules::Fail("input channels " + std::to_string(x[1]) + " are not divisible by groups " + std::to_string(groups));
  }
  if (w[0] != x[1]) {
    Rules::Fail("weights " + r.InText(1) + " need C = " + std::to_string(x[1]) + " in dimension 0 for input " +
                r.InText(0));
  }
  const std::int64_t m = r.Mul(w[1], groups);
  if (r.Inputs() == 3 && r.Shape(2) != Dims{m}) {
    Rules::Fail("bias " + r.InText(2) + " must be [" + std::to_string(m) + "], one per output channel");
  }
  Dims out{x[0], m};
  for (std::size_t a = 0; a < rank; ++a) out.push_back(TransposedExtent(r, a, x[2 + a], w[2 + a], d));
  return {{TensorShape(out), r.In(0).type}};
}

std::vector<TensorInfo> FullyConnected(const Rules& r) {
  r.Arity(2, 3);
  r.Rank(0, 2, "A");
  r.Rank(1, 2, "B");
  const auto& d = r.Descriptor<FullyConnectedDescriptor>();
  const Dims& a = r.Shape(0);
  const Dims& b = r.Shape(1);
  const std::int64_t m = d.transpose_a ? a[1] : a[0];
  const std::int64_t k = d.transpose_a ? a[0] : a[1];
  const std::int64_t kb = d.transpose_b ? b[1] : b[0];
  const std::int64_t n = d.transpose_b ? b[0] : b[1];
  if (k != kb) {
    Rules::Fail("op(A) of " + r.InText(0) + " has K = " + std::to_string(k) + " but op(B) of " + r.InText(1) +
                " has K = " + std::to_string(kb) + " (transpose_a " + std::to_string(d.transpose_a) +
                ", transpose_b " + std::to_string(d.transpose_b) + ")");
  }
  if (r.Inputs() == 3 && !BroadcastsTo(r.In(2).shape, TensorShape{m, n})) {
    Rules::Fail("C " + r.InText(2) + " does not broadcast to [" + std::to_string(m) + "," + std::to_string(n) + "]");
  }
  return {{TensorShape{m, n}, r.In(0).type}};
}

// numpy.matmul's output shape for inputs 0 (A) and 1 (B).
Dims MatMulShape(const Rules& r) {
  Dims a = r.Shape(0);
  Dims b = r.Shape(1);
  if (a.empty() || b.empty()) Rules::Fail("operands must have rank 1 or more (numpy.matmul), have " + r.InText(0) + " and " + r.InText(1));
  const bool a_vector = a.size() == 1;
  const bool b_vector = b.size() == 1;
  if (a_vector) a.insert(a.begin(), 1);
  if (b_vector) b.push_back(1);
  if (a[a.size() - 1] != b[b.size() - 2]) {
    Rules::Fail("A " + r.InText(0) + " has K = " + std::to_string(a[a.size() - 1]) + " but B " + r.InText(1) +
                " has K = " + std::to_string(b[b.size() - 2]));
  }
  Dims out = Broadcast(Dims(a.begin(), a.end() - 2), Dims(b.begin(), b.end() - 2));
  if (!a_vector) out.push_back(a[a.size() - 2]);
  if (!b_vector) out.push_back(b[b.size() - 1]);
  return out;
}

std::vector<TensorInfo> MatMul(const Rules& r) {
  r.Arity(2, 2);
  return {{TensorShape(MatMulShape(r)), r.In(0).type}};
}

// MatMulInteger's zero point input i (named `what`) of data input `data`, whose K axis is
// `k_from_end` axes from its end (1: the last): one value, or a tensor that broadcasts to the
// data with 1 along K (per row of A, per column of B).
void RequireMatMulZeroPoint(const Rules& r, std::size_t i, std::size_t data, std::size_t k_from_end, const char* what) {
  RequireZeroPointType(r, i, data, what);
  const Dims& z = r.Shape(i);
  const bool varies_along_k = z.size() >= k_from_end && z[z.size() - k_from_end] != 1;
  if (!BroadcastsTo(r.In(i).shape, r.In(data).shape) || varies_along_k) {
    Rules::Fail(std::string(what) + " " + r.InText(i) + " must be one value or broadcast to " + r.InText(data) +
                " with 1 along K");
  }
}

std::vector<TensorInfo> MatMulInteger(const Rules& r) {
  r.Arity(2, 4);
  RequireEightBitInteger(r, 0, "A");
  RequireEightBitInteger(r, 1, "B");
  const Dims out = MatMulShape(r);
  if (r.Inputs() > 2) RequireMatMulZeroPoint(r, 2, 0, 1, "a_zero_point");
  if (r.Inputs() > 3) RequireMatMulZeroPoint(r, 3, 1, r.Shape(1).size() == 1 ? 1 : 2, "b_zero_point");
  return {{TensorShape(out), DataType::kInt32}};
}

std::vector<TensorInfo> Pooling2d(const Rules& r) {
  r.Arity(1, 1);
  r.Rank(0, 4, "x [N, C, H, W]");
  const auto& d = r.Descriptor<Pooling2dDescriptor>();
  r.Known(d.type);
  const Dims& x = r.Shape(0);
  if (d.global) {
    if (x[2] == 0 || x[3] == 0) Rules::Fail("global pooling of an empty plane " + r.InText(0));
    return {{TensorShape{x[0], x[1], 1, 1}, r.In(0).type}};
  }
  const std::int64_t ho = Window("H", x[2], d.pads[0], d.pads[2], d.kernel[0], d.strides[0], d.dilations[0], d.ceil_mode);
  const std::int64_t wo = Window("W", x[3], d.pads[1], d.pads[3], d.kernel[1], d.strides[1], d.dilations[1], d.ceil_mode);
  return {{TensorShape{x[0], x[1], ho, wo}, r.In(0).type}};
}

std::vector<TensorInfo> PoolingNd(const Rules& r) {
  r.Arity(1, 1);
  const auto& d = r.Descriptor<PoolingNdDescriptor>();
  r.Known(d.type);
  const std::size_t rank = SpatialRank(r);
  const Dims& x = r.Shape(0);
  Dims out{x[0], x[1]};
  if (d.global) {
    for (std::size_t a = 0; a < rank; ++a) {
      if (x[2 + a] == 0) Rules::Fail("global pooling of an empty " + SpatialAxisName(a) + " in " + r.InText(0));
      out.push_back(1);
    }
    return {{TensorShape(out), r.In(0).type}};
  }
  RequireWindowLists(r, rank, {{"kernel", d.kernel}, {"strides", d.strides}, {"dilations", d.dilations}}, d.pads);
  for (std::size_t a = 0; a < rank; ++a) {
    out.push_back(Window(SpatialAxisName(a).c_str(), x[2 + a], d.pads[a], d.pads[rank + a], d.kernel[a],
                         d.strides[a], d.dilations[a], d.ceil_mode));
  }
  return {{TensorShape(out), r.In(0).type}};
}

std::vector<TensorInfo> Activation(const Rules& r) {
  r.Arity(1, 1);
  r.Known(r.Descriptor<ActivationDescriptor>().function);
  return {r.In(0)};
}

std::vector<TensorInfo> ElementwiseUnary(const Rules& r) {
  r.Arity(1, 1);
  const UnaryOperation operation = r.Descriptor<ElementwiseUnaryDescriptor>().operation;
  r.Known(operation);
  if (operation == UnaryOperation::kNot && r.In(0).type != DataType::kBool) {
    Rules::Fail(std::string("Not takes a bool input, not ") + ToString(r.In(0).type));
  }
  return {r.In(0)};
}

std::vector<TensorInfo> ElementwiseBinary(const Rules& r) {
  r.Arity(2, 2);
  const BinaryOperation operation = r.Descriptor<ElementwiseBinaryDescriptor>().operation;
  r.Known(operation);
  // ONNX Pow: the exponent may have any number type (the output has the base's).
  if (operation == BinaryOperation::kPow) {
    if (r.In(1).type == DataType::kBool) Rules::Fail("Pow takes a number exponent, not bool");
  } else if (r.In(0).type != r.In(1).type) {
    Rules::Fail(std::string("inputs have different types: ") + ToString(r.In(0).type) + " and " +
                ToString(r.In(1).type));
  }
  if (IsLogical(operation) && r.In(0).type != DataType::kBool) {
    Rules::Fail(std::string("a logical operation takes bool inputs, not ") + ToString(r.In(0).type));
  }
  if (!GivesBool(operation) && r.In(0).type == DataType::kBool) {
    Rules::Fail("arithmetic takes numbers, not bool inputs");
  }
  if (IsBitShift(operation) && !IsUnsignedIntegerType(r.In(0).type)) {
    Rules::Fail(std::string("a bit shift takes unsigned integers (u8, u16, u32, u64), not ") + ToString(r.In(0).type));
  }
  return {{TensorShape(Broadcast(r.Shape(0), r.Shape(1))), GivesBool(operation) ? DataType::kBool : r.In(0).type}};
}

std::vector<TensorInfo> Softmax(const Rules& r) {
  r.Arity(1, 1);
  r.Axis(r.Descriptor<SoftmaxDescriptor>().axis, r.Shape(0).size());
  return {r.In(0)};
}

std::vector<TensorInfo> BatchNormalization(const Rules& r) {
  r.Arity(5, 5);
  r.Descriptor<BatchNormalizationDescriptor>();
  const Dims& x = r.Shape(0);
  if (x.size() < 2) Rules::Fail("x " + r.InText(0) + " has no channel axis (needs [N, C, ...])");
  static const char* const kNames[] = {"x", "scale", "bias", "mean", "variance"};
  for (std::size_t i = 1; i < 5; ++i) {
    if (r.Shape(i) != Dims{x[1]}) {
      Rules::Fail(std::string(kNames[i]) + " (input " + std::to_string(i) + ") has shape " + r.InText(i) +
                  ", expected [" + std::to_string(x[1]) + "] for the channels of " + r.InText(0));
    }
  }
  return {r.In(0)};
}

std::vector<TensorInfo> LayerNormalization(const Rules& r) {
  r.Arity(2, 3);
  const auto& d = r.Descriptor<LayerNormalizationDescriptor>();
  const Dims& x = r.Shape(0);
  const std::size_t axis = r.Axis(d.axis, x.size());
  const Dims normalized(x.begin() + static_cast<std::ptrdiff_t>(axis), x.end());
  static const char* const kNames[] = {"x", "scale", "bias"};
  for (std::size_t i = 1; i < r.Inputs(); ++i) {
    // Aligned to x's last dimensions, the parameter is 1 before `axis` and x's dimensions from
    // `axis` on (leading 1s may be left out): its elements line up with one normalized row.
    const Dims& p = r.Shape(i);
    bool covers = p.size() <= x.size();
    const std::size_t lead = x.size() - std::min(p.size(), x.size());
    for (std::size_t j = 0; covers && j < p.size(); ++j) covers = p[j] == (lead + j < axis ? 1 : x[lead + j]);
    covers = covers && p.size() + axis >= x.size();
    if (!covers) {
      Rules::Fail(std::string(kNames[i]) + " (input " + std::to_string(i) + ") has shape " + r.InText(i) +
                  ", expected the normalized shape " + Text(normalized) + " of " + r.InText(0) + " from axis " +
                  std::to_string(d.axis));
    }
  }
  return {r.In(0)};
}

std::vector<TensorInfo> Reduce(const Rules& r) {
  r.Arity(1, 1);
  const auto& d = r.Descriptor<ReduceDescriptor>();
  r.Known(d.operation);
  const Dims& x = r.Shape(0);
  std::vector<bool> reduced(x.size(), d.axes.empty());
  for (const std::int32_t axis : d.axes) {
    const std::size_t a = r.Axis(axis, x.size());
    if (reduced[a]) Rules::Fail("axis " + std::to_string(axis) + " is given twice in " + ListText(d.axes));
    reduced[a] = true;
  }
  Dims out;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!reduced[i]) {
      out.push_back(x[i]);
    } else if (d.keep_dims) {
      out.push_back(1);
    }
  }
  return {{TensorShape(out), r.In(0).type}};
}

std::vector<TensorInfo> Reshape(const Rules& r) {
  r.Arity(1, 1);
  const auto& d = r.Descriptor<ReshapeDescriptor>();
  const Dims& x = r.Shape(0);
  Dims out = d.shape;
  std::int64_t known = 1;
  std::size_t inferred = out.size();
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] == 0) {
      if (i >= x.size()) {
        Rules::Fail("target " + Text(d.shape) + " copies dimension " + std::to_string(i) + " (a 0) of input " +
                    r.InText(0) + ", which has rank " + std::to_string(x.size()));
      }
      out[i] = x[i];
    }
    if (out[i] == -1) {
      if (inferred < out.size()) Rules::Fail("target " + Text(d.shape) + " has more than one -1");
      inferred = i;
    } else if (out[i] < 0) {
      Rules::Fail("target " + Text(d.shape) + " has the invalid dimension " + std::to_string(out[i]));
    } else {
      known = r.Mul(known, out[i]);
    }
  }
  const auto total = TryNumElements(x);
  if (!total) Rules::Fail("input " + r.InText(0) + " has more elements than a 64-bit count holds");
  if (inferred < out.size()) {
    if (known == 0 || *total % known != 0) {
      Rules::Fail("cannot reshape " + r.InText(0) + " (" + std::to_string(*total) + " elements) to " + Text(d.shape));
    }
    out[inferred] = *total / known;
  } else if (known != *total) {
    Rules::Fail("cannot reshape " + r.InText(0) + " (" + std::to_string(*total) + " elements) to " + Text(out) +
                " (" + std::to_string(known) + ")");
  }
  return {{TensorShape(out), r.In(0).type}};
}

std::vector<TensorInfo> Flatten(const Rules& r) {
  r.Arity(1, 1);
  const Dims& x = r.Shape(0);
  // ONNX allows axis == rank (everything in the first dimension).
  const std::size_t axis = r.Axis(r.Descriptor<FlattenDescriptor>().axis, x.size(), true);
  std::int64_t outer = 1, inner = 1;
  for (std::size_t i = 0; i < x.size(); ++i) {
    std::int64_t& part = i < axis ? outer : inner;
    part = r.Mul(part, x[i]);
  }
  return {{TensorShape{outer, inner}, r.In(0).type}};
}

std::vector<TensorInfo> Transpose(const Rules& r) {
  r.Arity(1, 1);
  const Dims& x = r.Shape(0);
  std::vector<std::uint32_t> perm = r.Descriptor<TransposeDescriptor>().permutation;
  if (perm.empty()) {
    for (std::size_t i = x.size(); i-- > 0;) perm.push_back(static_cast<std::uint32_t>(i));
  }
  if (perm.size() != x.size()) {
    Rules::Fail("permutation " + ListText(perm) + " has " + std::to_string(perm.size()) + " entries, input " +
                r.InText(0) + " has rank " + std::to_string(x.size()));
  }
  std::vector<bool> seen(x.size(), false);
  Dims out;
  for (const std::uint32_t axis : perm) {
    if (axis >= x.size() || seen[axis]) {
      Rules::Fail("permutation " + ListText(perm) + " is not a permutation of 0.." + std::to_string(x.size() - 1) +
                  " (axis " + std::to_string(axis) + (axis >= x.size() ? " is out of range)" : " repeats)"));
    }
    seen[axis] = true;
    out.push_back(x[axis]);
  }
  return {{TensorShape(out), r.In(0).type}};
}

std::vector<TensorInfo> Concat(const Rules& r) {
  if (r.Inputs() == 0) Rules::Fail("takes at least 1 input, has none");
  r.Arity(1, r.Inputs());
  const Dims& first = r.Shape(0);
  const std::size_t axis = r.Axis(r.Descriptor<ConcatDescriptor>().axis, first.size());
  Dims out = first;
  out[axis] = 0;
  for (std::size_t i = 0; i < r.Inputs(); ++i) {
    const Dims& shape = r.Shape(i);
    bool fits = shape.size() == first.size() && r.In(i).type == r.In(0).type;
    for (std::size_t a = 0; fits && a < shape.size(); ++a) fits = a == axis || shape[a] == first[a];
    if (!fits) {
      Rules::Fail("input " + std::to_string(i) + " " + ToString(r.In(i).type) + " " + r.InText(i) +
                  " does not fit input 0 " + ToString(r.In(0).type) + " " + r.InText(0) + " outside axis " +
                  std::to_string(axis));
    }
    out[axis] = r.Add(out[axis], shape[axis]);
  }
  return {{TensorShape(out), r.In(0).type}};
}

std::vector<TensorInfo> Split(const Rules& r) {
  const std::size_t count = r.layer().GetNumOutputs();
  if (count == 0) Rules::Fail("has at least 1 output, this layer has none");
  r.Arity(1, 1, count);
  const auto& d = r.Descriptor<SplitDescriptor>();
  const Dims& x = r.Shape(0);
  const std::size_t axis = r.Axis(d.axis, x.size());
  Dims sizes = d.sizes;
  if (sizes.empty()) {
    if (x[axis] % static_cast<std::int64_t>(count) != 0) {
      Rules::Fail("without sizes, axis " + std::to_string(axis) + " of length " + std::to_string(x[axis]) +
                  " (input " + r.InText(0) + ") does not divide into " + std::to_string(count) + " equal parts");
    }
    sizes.assign(count, x[axis] / static_cast<std::int64_t>(count));
  }
  if (sizes.size() != count) {
    Rules::Fail(std::to_string(sizes.size()) + " sizes " + Text(sizes) + " for " + Count(count, "output"));
  }
  std::int64_t total = 0;
  for (const std::int64_t size : sizes) {
    if (size < 0) Rules::Fail("sizes " + Text(sizes) + " contain the negative size " + std::to_string(size));
    total = r.Add(total, size);
  }
  if (total != x[axis]) {
    Rules::Fail("sizes " + Text(sizes) + " sum to " + std::to_string(total) + ", axis " + std::to_string(axis) +
                " of input " + r.InText(0) + " has length " + std::to_string(x[axis]));
  }
  std::vector<TensorInfo> outputs;
  for (const std::int64_t size : sizes) {
    Dims out = x;
    out[axis] = size;
    outputs.push_back({TensorShape(out), r.In(0).type});
  }
  return outputs;
}

std::vector<TensorInfo> Slice(const Rules& r) {
  r.Arity(1, 1);
  const auto& d = r.Descriptor<SliceDescriptor>();
  const Dims& x = r.Shape(0);
  const std::size_t n = d.starts.size();
  if (d.ends.size() != n || (!d.axes.empty() && d.axes.size() != n) || (!d.steps.empty() && d.steps.size() != n)) {
    Rules::Fail(std::to_string(n) + " starts, " + std::to_string(d.ends.size()) + " ends, " +
                std::to_string(d.axes.size()) + " axes and " + std::to_string(d.steps.size()) +
                " steps; ends, and axes and steps when given, need one per start");
  }
  Dims out = x;
  std::vector<bool> seen(x.size(), false);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t axis = r.Axis(d.axes.empty() ? static_cast<std::int64_t>(i) : d.axes[i], x.size());
    if (seen[axis]) Rules::Fail("axis " + std::to_string(axis) + " of " + r.InText(0) + " is sliced twice");
    seen[axis] = true;
    const std::int64_t step = d.steps.empty() ? 1 : d.steps[i];
    if (step == 0) Rules::Fail("the step for axis " + std::to_string(axis) + " is 0");
    out[axis] = SliceWindow(x[axis], d.starts[i], d.ends[i], step).count;
  }
  return {{TensorShape(out), r.In(0).type}};
}

// Input i holds indices: i32 or i64.
void RequireIndexType(const Rules& r, std::size_t i) {
  if (r.In(i).type != DataType::kInt32 && r.In(i).type != DataType::kInt64) {
    Rules::Fail("indices (input " + std::to_string(i) + ") must be i32 or i64, not " + ToString(r.In(i).type));
  }
}

// GatherElements' and ScatterElements' indices (input 1) against data (input 0): an index
// type, data's rank, and outside `axis` no dimension longer than data's.
void RequireElementIndices(const Rules& r, std::size_t axis) {
  RequireIndexType(r, 1);
  const Dims& x = r.Shape(0);
  const Dims& indices = r.Shape(1);
  bool fits = indices.size() == x.size();
  for (std::size_t a = 0; fits && a < x.size(); ++a) fits = a == axis || indices[a] <= x[a];
  if (!fits) {
    Rules::Fail("indices " + r.InText(1) + " must have data's rank and, outside axis " + std::to_string(axis) +
                ", no dimension longer than data's " + r.InText(0));
  }
}

std::vector<TensorInfo> Gather(const Rules& r) {
  r.Arity(2, 2);
  const Dims& x = r.Shape(0);
  if (x.empty()) Rules::Fail("data must have rank 1 or more, has shape " + r.InText(0));
  const std::size_t axis = r.Axis(r.Descriptor<GatherDescriptor>().axis, x.size());
  RequireIndexType(r, 1);
  Dims out(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(axis));
  const Dims& indices = r.Shape(1);
  out.insert(out.end(), indices.begin(), indices.end());
  out.insert(out.end(), x.begin() + static_cast<std::ptrdiff_t>(axis) + 1, x.end());
  return {{TensorShape(out), r.In(0).type}};
}

std::vector<TensorInfo> Pad(const Rules& r) {
  r.Arity(1, 1);
  const auto& d = r.Descriptor<PadDescriptor>();
  r.Known(d.mode);
  const Dims& x = r.Shape(0);
  if (d.pads.size() != 2 * x.size()) {
    Rules::Fail(std::to_string(d.pads.size()) + " pads for rank " + std::to_string(x.size()) + "; need " +
                std::to_string(2 * x.size()) + " (all begins, then all ends)");
  }
  Dims out = x;
  for (std::size_t i = 0; i < x.size(); ++i) {
    // Pads may be negative (cropping): add one at a time, keeping the extent non-negative.
    for (const std::int64_t pad : {d.pads[i], d.pads[i + x.size()]}) {
      // out[i] >= 0 here, so out[i] + pad cannot overflow for a negative pad.
      out[i] = pad >= 0 ? r.Add(out[i], pad) : out[i] + pad;
      if (out[i] < 0) {
        Rules::Fail("pads " + Text(d.pads) + " make axis " + std::to_string(i) + " of " + r.InText(0) + " negative");
      }
    }
  }
  return {{TensorShape(out), r.In(0).type}};
}

std::vector<TensorInfo> Cast(const Rules& r) {
  r.Arity(1, 1);
  const DataType to = r.Descriptor<CastDescriptor>().to;
  r.KnownType(to, "the target");
  return {{r.In(0).shape, to}};
}

std::vector<TensorInfo> Where(const Rules& r) {
  r.Arity(3, 3);
  r.Descriptor<WhereDescriptor>();
  if (r.In(0).type != DataType::kBool) Rules::Fail(std::string("cond (input 0) is ") + ToString(r.In(0).type) + ", not bool");
  if (r.In(1).type != r.In(2).type) {
    Rules::Fail(std::string("x and y have different types: ") + ToString(r.In(1).type) + " and " +
                ToString(r.In(2).type));
  }
  return {{TensorShape(Broadcast(Broadcast(r.Shape(0), r.Shape(1)), r.Shape(2))), r.In(1).type}};
}

std::vector<TensorInfo> GatherElements(const Rules& r) {
  r.Arity(2, 2);
  const Dims& x = r.Shape(0);
  if (x.empty()) Rules::Fail("data must have rank 1 or more, has shape " + r.InText(0));
  const std::size_t axis = r.Axis(r.Descriptor<GatherElementsDescriptor>().axis, x.size());
  RequireElementIndices(r, axis);
  return {{r.In(1).shape, r.In(0).type}};
}

std::vector<TensorInfo> ArgMinMax(const Rules& r) {
  r.Arity(1, 1);
  const auto& d = r.Descriptor<ArgMinMaxDescriptor>();
  r.Known(d.operation);
  Dims out = r.Shape(0);
  if (out.empty()) Rules::Fail("input must have rank 1 or more, has shape " + r.InText(0));
  const std::size_t axis = r.Axis(d.axis, out.size());
  if (out[axis] == 0) Rules::Fail("axis " + std::to_string(axis) + " of " + r.InText(0) + " is empty: no index to give");
  if (d.keep_dims) {
    out[axis] = 1;
  } else {
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(axis));
  }
  return {{TensorShape(out), DataType::kInt64}};
}

std::vector<TensorInfo> Trilu(const Rules& r) {
  r.Arity(1, 2);
  r.Descriptor<TriluDescriptor>();
  if (r.Shape(0).size() < 2) Rules::Fail("input must have rank 2 or more, has shape " + r.InText(0));
  if (r.Inputs() == 2 && (r.In(1).type != DataType::kInt64 || r.In(1).shape.NumElements() != 1 || r.Shape(1).size() > 1)) {
    Rules::Fail(std::string("k (input 1) must be one i64 value, is ") + ToString(r.In(1).type) + " " + r.InText(1));
  }
  return {r.In(0)};
}

std::vector<TensorInfo> Resize(const Rules& r) {
  r.Arity(1, 1);
  const auto& d = r.Descriptor<ResizeDescriptor>();
  r.Known(d.mode);
  r.Known(d.coordinate_transformation);
  r.Known(d.nearest_mode);
  const Dims& x = r.Shape(0);
  if (d.sizes.size() != x.size() || d.scales.size() != x.size()) {
    Rules::Fail(std::to_string(d.sizes.size()) + " sizes and " + std::to_string(d.scales.size()) + " scales for input " +
                r.InText(0) + "; need one of each per axis");
  }
  const bool crop = d.coordinate_transformation == ResizeCoordinates::kTfCropAndResize;
  if (d.roi.size() != (crop ? 2 * x.size() : 0)) {
    Rules::Fail(std::to_string(d.roi.size()) + " roi values; tf_crop_and_resize needs " +
                std::to_string(2 * x.size()) + " (starts, then ends), the other transformations none");
  }
  for (std::size_t a = 0; a < x.size(); ++a) {
    if (!(d.scales[a] > 0) || !std::isfinite(d.scales[a])) {
      Rules::Fail("scale " + std::to_string(d.scales[a]) + " of axis " + std::to_string(a) + " is not a positive number");
    }
    if (d.sizes[a] < 0 || (x[a] == 0 && d.sizes[a] > 0)) {
      Rules::Fail("axis " + std::to_string(a) + " of " + r.InText(0) + " cannot be resized to " +
                  std::to_string(d.sizes[a]));
    }
  }
  return {{TensorShape(d.sizes), r.In(0).type}};
}

std::vector<TensorInfo> GridSample(const Rules& r) {
  r.Arity(2, 2);
  const auto& d = r.Descriptor<GridSampleDescriptor>();
  r.Known(d.mode);
  r.Known(d.padding_mode);
  r.Rank(0, 4, "x [N, C, H, W]");
  r.Rank(1, 4, "grid [N, Ho, Wo, 2]");
  const Dims& x = r.Shape(0);
  const Dims& grid = r.Shape(1);
  if (grid[0] != x[0] || grid[3] != 2) {
    Rules::Fail("grid " + r.InText(1) + " must be [" + std::to_string(x[0]) + ", Ho, Wo, 2] for input " + r.InText(0));
  }
  if (!IsFloatingPointType(r.In(0).type) || r.In(1).type != r.In(0).type) {
    Rules::Fail(std::string("x and grid must have one floating-point type, have ") + ToString(r.In(0).type) + " and " +
                ToString(r.In(1).type));
  }
  if ((x[2] == 0 || x[3] == 0) && grid[1] * grid[2] > 0) {
    Rules::Fail("cannot sample input " + r.InText(0) + " with no pixels");
  }
  return {{TensorShape{x[0], x[1], grid[1], grid[2]}, r.In(0).type}};
}

std::vector<TensorInfo> TopK(const Rules& r) {
  r.Arity(1, 1, 2);
  const auto& d = r.Descriptor<TopKDescriptor>();
  Dims out = r.Shape(0);
  if (out.empty()) Rules::Fail("input must have rank 1 or more, has shape " + r.InText(0));
  const std::size_t axis = r.Axis(d.axis, out.size());
  if (d.k < 0 || d.k > out[axis]) {
    Rules::Fail("k " + std::to_string(d.k) + " is not in [0, " + std::to_string(out[axis]) + "], axis " +
                std::to_string(axis) + "'s length in " + r.InText(0));
  }
  out[axis] = d.k;
  return {{TensorShape(out), r.In(0).type}, {TensorShape(out), DataType::kInt64}};
}

std::vector<TensorInfo> CumSum(const Rules& r) {
  r.Arity(1, 2);
  const Dims& x = r.Shape(0);
  if (x.empty()) Rules::Fail("input must have rank 1 or more, has shape " + r.InText(0));
  r.Axis(r.Descriptor<CumSumDescriptor>().axis, x.size());
  if (r.Inputs() == 2) {
    RequireIndexType(r, 1);
    if (r.In(1).shape.NumElements() != 1 || r.Shape(1).size() > 1) Rules::Fail("axis (input 1) must be one value, is " + r.InText(1));
  }
  return {r.In(0)};
}

std::vector<TensorInfo> ScatterElements(const Rules& r) {
  r.Arity(3, 3);
  const auto& d = r.Descriptor<ScatterElementsDescriptor>();
  r.Known(d.reduction);
  const Dims& x = r.Shape(0);
  if (x.empty()) Rules::Fail("data must have rank 1 or more, has shape " + r.InText(0));
  const std::size_t axis = r.Axis(d.axis, x.size());
  RequireElementIndices(r, axis);
  if (r.In(2) != TensorInfo{r.In(1).shape, r.In(0).type}) {
    Rules::Fail("updates " + std::string(ToString(r.In(2).type)) + " " + r.InText(2) + " must have the indices' shape " +
                r.InText(1) + " and data's type " + ToString(r.In(0).type));
  }
  return {r.In(0)};
}

std::vector<TensorInfo> GatherNd(const Rules& r) {
  r.Arity(2, 2);
  const auto batch = static_cast<std::size_t>(std::max(0, r.Descriptor<GatherNdDescriptor>().batch_dims));
  const Dims& x = r.Shape(0);
  const Dims& indices = r.Shape(1);
  if (r.In(1).type != DataType::kInt64) Rules::Fail(std::string("indices must be i64, not ") + ToString(r.In(1).type));
  if (r.Descriptor<GatherNdDescriptor>().batch_dims < 0 || indices.empty() || batch >= std::min(x.size(), indices.size())) {
    Rules::Fail("batch_dims " + std::to_string(r.Descriptor<GatherNdDescriptor>().batch_dims) + " must be below the ranks of data " +
                r.InText(0) + " and indices " + r.InText(1));
  }
  const std::int64_t q = indices.back();
  if (q < 1 || static_cast<std::size_t>(q) > x.size() - batch) {
    Rules::Fail("the last dimension of indices " + r.InText(1) + " must be in [1, " + std::to_string(x.size() - batch) + "]");
  }
  for (std::size_t a = 0; a < batch; ++a) {
    if (indices[a] != x[a]) Rules::Fail("batch axis " + std::to_string(a) + " differs: data " + r.InText(0) + ", indices " + r.InText(1));
  }
  Dims out(indices.begin(), indices.end() - 1);
  out.insert(out.end(), x.begin() + static_cast<std::ptrdiff_t>(batch + static_cast<std::size_t>(q)), x.end());
  return {{TensorShape(out), r.In(0).type}};
}

// ONNX RNN, GRU and LSTM (layout 0): the C header's BpRecurrentAttributes comment.
std::vector<TensorInfo> Recurrent(const Rules& r) {
  const auto& d = r.Descriptor<RecurrentDescriptor>();
  r.Known(d.cell);
  r.Known(d.direction);
  const bool lstm = d.cell == RecurrentCell::kLstm;
  r.Arity(3, lstm ? 8 : 6, lstm ? 3 : 2);
  r.Rank(0, 3, "X [T, B, I]");
  r.Rank(1, 3, "W [D, G*H, I]");
  r.Rank(2, 3, "R [D, G*H, H]");
  const DataType type = r.In(0).type;
  if (!IsFloatingPointType(type)) Rules::Fail(std::string("X must be floating-point, is ") + ToString(type));
  const Dims& x = r.Shape(0);
  const std::int64_t steps = x[0], batch = x[1], hidden = r.Shape(2)[2];
  const std::int64_t nd = d.direction == RecurrentDirection::kBidirectional ? 2 : 1;
  const std::int64_t gates = d.cell == RecurrentCell::kRnn ? 1 : d.cell == RecurrentCell::kGru ? 3 : 4;
  const std::int64_t gh = r.Mul(gates, hidden);
  const Dims state{nd, batch, hidden};
  const std::pair<Dims, const char*> expected[] = {
      {x, "X"}, {{nd, gh, x[2]}, "W"}, {{nd, gh, hidden}, "R"}, {{nd, r.Mul(2, gh)}, "B"},
      {{batch}, "sequence_lens"}, {state, "initial_h"}, {state, "initial_c"}, {{nd, r.Mul(3, hidden)}, "P"}};
  for (std::size_t i = 1; i < r.Inputs(); ++i) {
    if (r.Shape(i) != expected[i].first) {
      Rules::Fail(std::string(expected[i].second) + " (input " + std::to_string(i) + ") has shape " + r.InText(i) +
                  ", expected " + Text(expected[i].first) + " for X " + r.InText(0) + " and R " + r.InText(2));
    }
    const DataType want = i == 4 ? DataType::kInt32 : type;
    if (r.In(i).type != want) {
      Rules::Fail(std::string(expected[i].second) + " (input " + std::to_string(i) + ") is " +
                  ToString(r.In(i).type) + ", must be " + ToString(want));
    }
  }
  const auto functions = static_cast<std::size_t>(gates == 1 ? 1 : gates == 3 ? 2 : 3) * static_cast<std::size_t>(nd);
  if (d.activations.size() != functions || d.activation_alpha.size() != functions ||
      d.activation_beta.size() != functions) {
    Rules::Fail("activations, activation_alpha and activation_beta must have " + std::to_string(functions) +
                " entries (the cell's functions per direction), have " + std::to_string(d.activations.size()) + ", " +
                std::to_string(d.activation_alpha.size()) + " and " + std::to_string(d.activation_beta.size()));
  }
  for (const std::uint32_t f : d.activations) r.Known(static_cast<RecurrentActivation>(f));
  if (!(d.clip >= 0) || !std::isfinite(d.clip)) Rules::Fail("clip " + std::to_string(d.clip) + " must be 0 (none) or positive");
  if (d.linear_before_reset && d.cell != RecurrentCell::kGru) Rules::Fail("linear_before_reset is GRU's");
  if (d.input_forget && !lstm) Rules::Fail("input_forget is LSTM's");
  std::vector<TensorInfo> outputs{{TensorShape{steps, nd, batch, hidden}, type}, {TensorShape(state), type}};
  if (lstm) outputs.push_back({TensorShape(state), type});
  return outputs;
}

// Data-dependent extents (Backend API 2.6): each op's outputs have an upper-bound shape, and its
// last output is `count` (i64 [1]), the valid extent along the bounded axis. This is the one
// place that decides the bounds (the C header's comments give the semantics).
const TensorInfo kCountOutput{TensorShape{1}, DataType::kInt64};

// One value (rank 0 or [1]) of `type` at optional input i, when present.
void RequireOptionalScalar(const Rules& r, std::size_t i, DataType type, const char* what) {
  if (r.Inputs() <= i) return;
  if (r.In(i).type != type || r.Shape(i).size() > 1 || r.In(i).shape.NumElements() != 1) {
    Rules::Fail(std::string(what) + " (input " + std::to_string(i) + ") must be one " + ToString(type) + " value, is " +
                ToString(r.In(i).type) + " " + r.InText(i));
  }
}

std::vector<TensorInfo> NonZero(const Rules& r) {
  r.Arity(1, 1, 2);
  const Dims& x = r.Shape(0);
  if (x.empty()) Rules::Fail("x must have rank 1 or more, has shape " + r.InText(0));
  r.KnownType(r.In(0).type, "x");
  return {{TensorShape{static_cast<std::int64_t>(x.size()), r.In(0).shape.NumElements()}, DataType::kInt64}, kCountOutput};
}

std::vector<TensorInfo> Compress(const Rules& r) {
  r.Arity(2, 2, 2);
  const auto& d = r.Descriptor<CompressDescriptor>();
  r.KnownType(r.In(0).type, "input");
  if (r.In(1).type != DataType::kBool || r.Shape(1).size() != 1) {
    Rules::Fail(std::string("condition (input 1) must be a 1-D bool tensor, is ") + ToString(r.In(1).type) + " " +
                r.InText(1));
  }
  const std::int64_t selectable = r.Shape(1)[0];
  if (!d.has_axis) return {{TensorShape{std::min(selectable, r.In(0).shape.NumElements())}, r.In(0).type}, kCountOutput};
  Dims out = r.Shape(0);
  const std::size_t axis = r.Axis(d.axis, out.size());
  out[axis] = std::min(selectable, out[axis]);
  return {{TensorShape(out), r.In(0).type}, kCountOutput};
}

std::vector<TensorInfo> Unique(const Rules& r) {
  r.Arity(1, 1, 5);
  const auto& d = r.Descriptor<UniqueDescriptor>();
  const DataType type = r.In(0).type;
  r.KnownType(type, "x");
  if (type == DataType::kBool) Rules::Fail("x must hold numbers, is bool");
  Dims y = r.Shape(0);
  std::int64_t length = r.In(0).shape.NumElements();
  if (d.has_axis) {
    length = y[r.Axis(d.axis, y.size())];
  } else {
    y = {length};
  }
  const TensorInfo per_slice{TensorShape{length}, DataType::kInt64};
  return {{TensorShape(y), type}, per_slice, per_slice, per_slice, kCountOutput};
}

std::vector<TensorInfo> NonMaxSuppression(const Rules& r) {
  r.Arity(2, 5, 2);
  r.Rank(0, 3, "boxes [B, N, 4]");
  r.Rank(1, 3, "scores [B, C, N]");
  const Dims& boxes = r.Shape(0);
  const Dims& scores = r.Shape(1);
  if (r.In(0).type != DataType::kFloat32 || r.In(1).type != DataType::kFloat32) {
    Rules::Fail(std::string("boxes and scores must be f32, are ") + ToString(r.In(0).type) + " and " +
                ToString(r.In(1).type));
  }
  if (boxes[2] != 4 || scores[0] != boxes[0] || scores[2] != boxes[1]) {
    Rules::Fail("boxes " + r.InText(0) + " and scores " + r.InText(1) + " must be [B, N, 4] and [B, C, N]");
  }
  RequireOptionalScalar(r, 2, DataType::kInt64, "max_output_boxes_per_class");
  RequireOptionalScalar(r, 3, DataType::kFloat32, "iou_threshold");
  RequireOptionalScalar(r, 4, DataType::kFloat32, "score_threshold");
  const std::int64_t bound = r.Mul(r.Mul(boxes[0], scores[1]), boxes[1]);
  return {{TensorShape{bound, 3}, DataType::kInt64}, kCountOutput};
}

// ONNX DFT (the C header's BpDftAttributes comment): [..., N, ..., 1 or 2] -> [..., bins, ..., 2].
std::vector<TensorInfo> Dft(const Rules& r) {
  r.Arity(1, 1);
  const auto& d = r.Descriptor<DftDescriptor>();
  const Dims& x = r.Shape(0);
  const DataType type = r.In(0).type;
  if (!IsFloatingPointType(type)) Rules::Fail(std::string("input must be floating-point, is ") + ToString(type));
  if (x.size() < 2 || (x.back() != 1 && x.back() != 2)) {
    Rules::Fail("input must have rank 2 or more and a trailing axis of 1 (real) or 2 (complex), has shape " + r.InText(0));
  }
  if (d.axis < 0 || static_cast<std::size_t>(d.axis) + 1 >= x.size()) {
    Rules::Fail("axis " + std::to_string(d.axis) + " is out of range [0, " + std::to_string(x.size() - 2) +
                "] for input " + r.InText(0) + " (the trailing axis holds the real and imaginary parts)");
  }
  if (d.length < 0) Rules::Fail("length " + std::to_string(d.length) + " must be positive, or 0 for the axis' length");
  const std::int64_t length = d.length == 0 ? x[static_cast<std::size_t>(d.axis)] : d.length;
  if (length < 1) Rules::Fail("the transform of axis " + std::to_string(d.axis) + " of input " + r.InText(0) + " has no points");
  if (d.onesided && x.back() != 1) Rules::Fail("onesided takes a real input (a trailing axis of 1), has shape " + r.InText(0));
  if (d.onesided && d.inverse) Rules::Fail("onesided is not defined for the inverse transform");
  Dims out = x;
  out[static_cast<std::size_t>(d.axis)] = d.onesided ? length / 2 + 1 : length;
  out.back() = 2;
  return {{TensorShape(out), type}};
}

// ONNX LRN (the C header's BpLrnAttributes comment): the input's shape and type.
std::vector<TensorInfo> Lrn(const Rules& r) {
  r.Arity(1, 1);
  const auto& d = r.Descriptor<LrnDescriptor>();
  if (r.Shape(0).size() < 3) Rules::Fail("input must have rank 3 or more ([N, C, D1, ...]), has shape " + r.InText(0));
  if (!IsFloatingPointType(r.In(0).type)) Rules::Fail(std::string("input must be floating-point, is ") + ToString(r.In(0).type));
  if (d.size < 1) Rules::Fail("size must be 1 or more, is 0");
  if (!std::isfinite(d.alpha) || !std::isfinite(d.beta) || !std::isfinite(d.bias)) {
    Rules::Fail("alpha, beta and bias must be finite, are " + std::to_string(d.alpha) + ", " + std::to_string(d.beta) +
                " and " + std::to_string(d.bias));
  }
  return {r.In(0)};
}

// ONNX Det: [..., M, M] -> [...].
std::vector<TensorInfo> Det(const Rules& r) {
  r.Arity(1, 1);
  r.Descriptor<DetDescriptor>();
  const Dims& x = r.Shape(0);
  if (!IsFloatingPointType(r.In(0).type)) Rules::Fail(std::string("input must be floating-point, is ") + ToString(r.In(0).type));
  if (x.size() < 2 || x[x.size() - 1] != x[x.size() - 2]) {
    Rules::Fail("input must be square matrices [..., M, M], has shape " + r.InText(0));
  }
  return {{TensorShape(Dims(x.begin(), x.end() - 2)), r.In(0).type}};
}

// Layers whose outputs are given, not inferred: returned as the layer has them.
std::vector<TensorInfo> Given(const Rules& r) {
  std::vector<TensorInfo> outputs;
  for (std::size_t i = 0; i < r.layer().GetNumOutputs(); ++i) outputs.push_back(r.layer().GetOutputInfo(i));
  return outputs;
}

std::vector<TensorInfo> Infer(const ILayerView& layer) {
  const Rules r(layer);
  for (std::size_t i = 0; i < layer.GetNumInputs(); ++i) {
    if (SizeOf(r.In(i).type) == 0) r.KnownType(r.In(i).type, "input " + std::to_string(i));
  }
  switch (layer.GetType()) {
    case LayerType::kInput:
    case LayerType::kConstant:
    case LayerType::kPreCompiled: return Given(r);
    case LayerType::kOutput: r.Arity(1, 1, 0); return {};
    case LayerType::kConvolution2d: return Convolution2d(r);
    case LayerType::kFullyConnected: return FullyConnected(r);
    case LayerType::kMatMul: return MatMul(r);
    case LayerType::kPooling2d: return Pooling2d(r);
    case LayerType::kActivation: return Activation(r);
    case LayerType::kElementwiseBinary: return ElementwiseBinary(r);
    case LayerType::kElementwiseUnary: return ElementwiseUnary(r);
    case LayerType::kSoftmax: return Softmax(r);
    case LayerType::kBatchNormalization: return BatchNormalization(r);
    case LayerType::kLayerNormalization: return LayerNormalization(r);
    case LayerType::kReduce: return Reduce(r);
    case LayerType::kReshape: return Reshape(r);
    case LayerType::kFlatten: return Flatten(r);
    case LayerType::kTranspose: return Transpose(r);
    case LayerType::kConcat: return Concat(r);
    case LayerType::kSplit: return Split(r);
    case LayerType::kSlice: return Slice(r);
    case LayerType::kGather: return Gather(r);
    case LayerType::kPad: return Pad(r);
    case LayerType::kCast: return Cast(r);
    case LayerType::kWhere: return Where(r);
    case LayerType::kGatherElements: return GatherElements(r);
    case LayerType::kArgMinMax: return ArgMinMax(r);
    case LayerType::kTrilu: return Trilu(r);
    case LayerType::kResize: return Resize(r);
    case LayerType::kConvolutionTranspose: return ConvolutionTranspose(r);
    case LayerType::kTopK: return TopK(r);
    case LayerType::kCumSum: return CumSum(r);
    case LayerType::kScatterElements: return ScatterElements(r);
    case LayerType::kGatherNd: return GatherNd(r);
    case LayerType::kConvolutionNd: return ConvolutionNd(r);
    case LayerType::kPoolingNd: return PoolingNd(r);
    case LayerType::kGridSample: return GridSample(r);
    case LayerType::kMatMulInteger: return MatMulInteger(r);
    case LayerType::kConvolutionInteger: return ConvolutionInteger(r);
    case LayerType::kRecurrent: return Recurrent(r);
    case LayerType::kNonZero: return NonZero(r);
    case LayerType::kCompress: return Compress(r);
    case LayerType::kUnique: return Unique(r);
    case LayerType::kNonMaxSuppression: return NonMaxSuppression(r);
    case LayerType::kDft: return Dft(r);
    case LayerType::kLrn: return Lrn(r);
    case LayerType::kDet: return Det(r);
    case LayerType::kCount: break;
  }
  Rules::Fail("unknown layer type " + std::to_string(static_cast<std::uint32_t>(layer.GetType())));
}

}  // namespace

bool InferOutputs(const ILayerView& layer, std::vector<TensorInfo>& outputs, std::string& why) {
  try {
    outputs = Infer(layer);
    return true;
  } catch (Broken& broken) {
    why = std::move(broken.why);
    return false;
  }
}

bool CheckLayer(const ILayerView& layer, std::string& why) {
  std::vector<TensorInfo> inferred;
  if (!InferOutputs(layer, inferred, why)) return false;
  for (std::size_t i = 0; i < inferred.size(); ++i) {
    const TensorInfo& output = layer.GetOutputInfo(i);
    if (output != inferred[i]) {
      why = "output " + std::to_string(i) + " is " + ToString(output.type) + " " + ToString(output.shape) +
            ", the op gives " + ToString(inferred[i].type) + " " + ToString(inferred[i].shape);
      return false;
    }
  }
  return true;
}

LayerValues::LayerValues(LayerType type, std::string name, const LayerDescriptor* descriptor,
                         std::vector<TensorInfo> inputs, std::vector<TensorInfo> outputs)
    : type_(type),
      name_(std::move(name)),
      descriptor_(descriptor),
      inputs_(std::move(inputs)),
      outputs_(std::move(outputs)) {}

}  // namespace backplane::backend
