// Output shapes and types of every op of op set v1, from its inputs and descriptor.
#include "graph/graph.hpp"

#include <backplane/checked_size.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/exception.hpp>

#include <algorithm>
#include <numeric>
#include <set>

namespace backplane::graph {

namespace {

using Dims = std::vector<std::int64_t>;

// Collects the layer for messages; every failure names it.
class Inference {
 public:
  explicit Inference(const Layer& layer) : layer_(layer) {}

  [[noreturn]] void Fail(const std::string& why) const {
    throw Exception(ErrorCode::kInvalidArgument, "layer " + layer_.Describe() + ": " + why);
  }

  void Arity(std::size_t min_inputs, std::size_t max_inputs) const {
    const std::size_t n = layer_.inputs.size();
    if (n < min_inputs || n > max_inputs) {
      Fail("takes " + (min_inputs == max_inputs ? std::to_string(min_inputs)
                                               : std::to_string(min_inputs) + " to " + std::to_string(max_inputs)) +
           " inputs, has " + std::to_string(n));
    }
  }

  const TensorInfo& In(std::size_t i) const { return layer_.input_infos.at(i); }
  const Dims& Shape(std::size_t i) const { return In(i).shape.Dims(); }

  void Rank(std::size_t i, std::size_t rank, const char* what) const {
    if (Shape(i).size() != rank) {
      Fail(std::string(what) + " (input " + std::to_string(i) + ") must have rank " + std::to_string(rank) +
           ", has shape " + ToString(In(i).shape));
    }
  }

  std::size_t Axis(std::int64_t axis, std::size_t rank, bool allow_rank = false) const {
    const auto r = static_cast<std::int64_t>(rank);
    const std::int64_t upper = allow_rank ? r : r - 1;
    if (axis < -r || axis > upper) {
      Fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
    }
    return static_cast<std::size_t>(axis < 0 ? axis + r : axis);
  }

  template <typename D>
  const D& Descriptor() const {
    if (!layer_.descriptor) Fail("has no descriptor");
    return static_cast<const D&>(*layer_.descriptor);
  }

  const Layer& layer() const { return layer_; }

  // Overflow-checked dimension arithmetic (the SDK's one helper); failures name the layer.
  std::int64_t Mul(std::int64_t a, std::int64_t b) const { return CheckedMulDims(a, b, Where()); }
  std::int64_t Add(std::int64_t a, std::int64_t b) const { return CheckedAddDims(a, b, Where()); }
  std::string Where() const { return "layer " + layer_.Describe(); }

 private:
  const Layer& layer_;
};

Dims Broadcast(const Inference& inference, const Dims& a, const Dims& b) {
  const std::size_t rank = std::max(a.size(), b.size());
  Dims out(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    const std::int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const std::int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1) {
      inference.Fail("shapes " + ToString(TensorShape(a)) + " and " + ToString(TensorShape(b)) +
                     " cannot be broadcast together");
    }
    out[i] = da == 1 ? db : da;
  }
  return out;
}

std::int64_t WindowOutput(const Inference& inference, std::int64_t size, std::int64_t pad_begin,
                          std::int64_t pad_end, std::int64_t kernel, std::int64_t stride,
                          std::int64_t dilation, bool ceil_mode) {
  if (stride <= 0 || dilation <= 0 || kernel <= 0) inference.Fail("kernel, strides and dilations must be positive");
  if (pad_begin < 0 || pad_end < 0) inference.Fail("pads must not be negative");
  const std::int64_t span = inference.Add(inference.Mul(dilation, kernel - 1), 1);
  const std::int64_t padded = inference.Add(inference.Add(size, pad_begin), pad_end);
  if (padded < span) {
    inference.Fail("the window (" + std::to_string(span) + ") is larger than the padded input (" +
                   std::to_string(padded) + ")");
  }
  std::int64_t out = (padded - span) / stride + 1;
  if (ceil_mode) {
    out = (padded - span + stride - 1) / stride + 1;
    // The last window must start inside the input or its leading padding.
    if ((out - 1) * stride >= size + pad_begin) --out;
  }
  return out;
}

std::vector<TensorInfo> Convolution2d(const Inference& in) {
  in.Arity(2, 3);
  in.Rank(0, 4, "the input");
  in.Rank(1, 4, "the weights");
  const auto& d = in.Descriptor<Convolution2dDescriptor>();
  const Dims& x = in.Shape(0);
  const Dims& w = in.Shape(1);
  if (d.groups == 0) in.Fail("groups must be at least 1");
  if (x[1] != in.Mul(w[1], static_cast<std::int64_t>(d.groups))) {
    in.Fail("input has " + std::to_string(x[1]) + " channels but weights " + ToString(in.In(1).shape) +
            " with " + std::to_string(d.groups) + " groups expect " + std::to_string(w[1] * d.groups));
  }
  if (w[0] % d.groups != 0) {
    in.Fail(std::to_string(w[0]) + " output channels are not divisible by " + std::to_string(d.groups) + " groups");
  }
  if (in.layer().inputs.size() == 3 && in.In(2).shape.NumElements() != w[0]) {
    in.Fail("bias " + ToString(in.In(2).shape) + " must have " + std::to_string(w[0]) + " elements");
  }
  const auto ho = WindowOutput(in, x[2], d.pads[0], d.pads[2], w[2], d.strides[0], d.dilations[0], false);
  const auto wo = WindowOutput(in, x[3], d.pads[1], d.pads[3], w[3], d.strides[1], d.dilations[1], false);
  return {{TensorShape{x[0], w[0], ho, wo}, in.In(0).type}};
}

std::vector<TensorInfo> FullyConnected(const Inference& in) {
  in.Arity(2, 3);
  in.Rank(0, 2, "A");
  in.Rank(1, 2, "B");
  const auto& d = in.Descriptor<FullyConnectedDescriptor>();
  const Dims& a = in.Shape(0);
  const Dims& b = in.Shape(1);
  const std::int64_t m = d.transpose_a ? a[1] : a[0];
  const std::int64_t k = d.transpose_a ? a[0] : a[1];
  const std::int64_t kb = d.transpose_b ? b[1] : b[0];
  const std::int64_t n = d.transpose_b ? b[0] : b[1];
  if (k != kb) {
    in.Fail("A " + ToString(in.In(0).shape) + " and B " + ToString(in.In(1).shape) +
            " (transpose_a " + std::to_string(d.transpose_a) + ", transpose_b " + std::to_string(d.transpose_b) +
            ") disagree on K: " + std::to_string(k) + " vs " + std::to_string(kb));
  }
  if (in.layer().inputs.size() == 3) {
    const Dims out = Broadcast(in, in.Shape(2), Dims{m, n});
    if (out != Dims{m, n}) in.Fail("C " + ToString(in.In(2).shape) + " does not broadcast to [" +
                                   std::to_string(m) + "," + std::to_string(n) + "]");
  }
  return {{TensorShape{m, n}, in.In(0).type}};
}

std::vector<TensorInfo> MatMul(const Inference& in) {
  in.Arity(2, 2);
  Dims a = in.Shape(0);
  Dims b = in.Shape(1);
  if (a.empty() || b.empty()) in.Fail("MatMul inputs must have rank 1 or more");
  const bool a_vector = a.size() == 1;
  const bool b_vector = b.size() == 1;
  if (a_vector) a.insert(a.begin(), 1);
  if (b_vector) b.push_back(1);
  if (a[a.size() - 1] != b[b.size() - 2]) {
    in.Fail("inner dimensions differ: " + ToString(in.In(0).shape) + " x " + ToString(in.In(1).shape));
  }
  Dims batch = Broadcast(in, Dims(a.begin(), a.end() - 2), Dims(b.begin(), b.end() - 2));
  if (!a_vector) batch.push_back(a[a.size() - 2]);
  if (!b_vector) batch.push_back(b[b.size() - 1]);
  return {{TensorShape(batch), in.In(0).type}};
}

std::vector<TensorInfo> Pooling2d(const Inference& in) {
  in.Arity(1, 1);
  in.Rank(0, 4, "the input");
  const auto& d = in.Descriptor<Pooling2dDescriptor>();
  const Dims& x = in.Shape(0);
  if (d.global) return {{TensorShape{x[0], x[1], 1, 1}, in.In(0).type}};
  const auto ho = WindowOutput(in, x[2], d.pads[0], d.pads[2], d.kernel[0], d.strides[0], d.dilations[0], d.ceil_mode);
  const auto wo = WindowOutput(in, x[3], d.pads[1], d.pads[3], d.kernel[1], d.strides[1], d.dilations[1], d.ceil_mode);
  return {{TensorShape{x[0], x[1], ho, wo}, in.In(0).type}};
}

std::vector<TensorInfo> SameAsInput(const Inference& in) {
  in.Arity(1, 1);
  return {in.In(0)};
}

std::vector<TensorInfo> ElementwiseBinary(const Inference& in) {
  in.Arity(2, 2);
  if (in.In(0).type != in.In(1).type) {
    in.Fail(std::string("inputs have different types: ") + ToString(in.In(0).type) + " and " + ToString(in.In(1).type));
  }
  return {{TensorShape(Broadcast(in, in.Shape(0), in.Shape(1))), in.In(0).type}};
}

std::vector<TensorInfo> Softmax(const Inference& in) {
  in.Arity(1, 1);
  in.Axis(in.Descriptor<SoftmaxDescriptor>().axis, in.Shape(0).size());
  return {in.In(0)};
}

std::vector<TensorInfo> BatchNormalization(const Inference& in) {
  in.Arity(5, 5);
  const Dims& x = in.Shape(0);
  if (x.size() < 2) in.Fail("the input must have rank 2 or more, has shape " + ToString(in.In(0).shape));
  for (std::size_t i = 1; i < 5; ++i) {
    if (in.In(i).shape.NumElements() != x[1]) {
      in.Fail("input " + std::to_string(i) + " " + ToString(in.In(i).shape) + " must have " +
              std::to_string(x[1]) + " elements, one per channel");
    }
  }
  return {in.In(0)};
}

std::vector<TensorInfo> LayerNormalization(const Inference& in) {
  in.Arity(2, 3);
  const Dims& x = in.Shape(0);
  const std::size_t axis = in.Axis(in.Descriptor<LayerNormalizationDescriptor>().axis, x.size());
  std::int64_t normalized = 1;
  for (std::size_t i = axis; i < x.size(); ++i) normalized = in.Mul(normalized, x[i]);
  for (std::size_t i = 1; i < in.layer().inputs.size(); ++i) {
    if (in.In(i).shape.NumElements() != normalized) {
      in.Fail("input " + std::to_string(i) + " " + ToString(in.In(i).shape) + " must have " +
              std::to_string(normalized) + " elements (the normalized dimensions)");
    }
  }
  return {in.In(0)};
}

std::vector<TensorInfo> Reduce(const Inference& in) {
  in.Arity(1, 1);
  const auto& d = in.Descriptor<ReduceDescriptor>();
  const Dims& x = in.Shape(0);
  std::set<std::size_t> axes;
  for (auto axis : d.axes) {
    if (!axes.insert(in.Axis(axis, x.size())).second) in.Fail("axis " + std::to_string(axis) + " is given twice");
  }
  if (d.axes.empty()) {
    for (std::size_t i = 0; i < x.size(); ++i) axes.insert(i);
  }
  Dims out;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (!axes.count(i)) {
      out.push_back(x[i]);
    } else if (d.keep_dims) {
      out.push_back(1);
    }
  }
  return {{TensorShape(out), in.In(0).type}};
}

std::vector<TensorInfo> Reshape(const Inference& in) {
  in.Arity(1, 1);
  const auto& d = in.Descriptor<ReshapeDescriptor>();
  const Dims& x = in.Shape(0);
  Dims out = d.shape;
  std::int64_t known = 1;
  int inferred = -1;
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i] == 0) {
      if (i >= x.size()) in.Fail("target dimension " + std::to_string(i) + " is 0 but the input has rank " + std::to_string(x.size()));
      out[i] = x[i];
    }
    if (out[i] == -1) {
      if (inferred >= 0) in.Fail("the target shape has more than one -1");
      inferred = static_cast<int>(i);
    } else if (out[i] < 0) {
      in.Fail("target dimension " + std::to_string(out[i]) + " is invalid");
    } else {
      known = in.Mul(known, out[i]);
    }
  }
  const std::int64_t total = CheckedNumElements(x, in.Where());
  if (inferred >= 0) {
    if (known == 0 || total % known != 0) in.Fail("cannot reshape " + ToString(in.In(0).shape) + " to " + ToString(TensorShape(d.shape)));
    out[inferred] = total / known;
  } else if (known != total) {
    in.Fail("cannot reshape " + ToString(in.In(0).shape) + " (" + std::to_string(total) + " elements) to " +
            ToString(TensorShape(out)) + " (" + std::to_string(known) + ")");
  }
  return {{TensorShape(out), in.In(0).type}};
}

std::vector<TensorInfo> Flatten(const Inference& in) {
  in.Arity(1, 1);
  const Dims& x = in.Shape(0);
  const std::size_t axis = in.Axis(in.Descriptor<FlattenDescriptor>().axis, x.size(), true);
  std::int64_t outer = 1, inner = 1;
  for (std::size_t i = 0; i < x.size(); ++i) {
    std::int64_t& part = i < axis ? outer : inner;
    part = in.Mul(part, x[i]);
  }
  return {{TensorShape{outer, inner}, in.In(0).type}};
}

std::vector<TensorInfo> Transpose(const Inference& in) {
  in.Arity(1, 1);
  const Dims& x = in.Shape(0);
  std::vector<std::uint32_t> perm = in.Descriptor<TransposeDescriptor>().permutation;
  if (perm.empty()) {
    for (std::size_t i = x.size(); i-- > 0;) perm.push_back(static_cast<std::uint32_t>(i));
  }
  std::vector<std::uint32_t> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  bool valid = perm.size() == x.size();
  for (std::size_t i = 0; valid && i < sorted.size(); ++i) valid = sorted[i] == i;
  if (!valid) in.Fail("the permutation is not a permutation of the input's " + std::to_string(x.size()) + " axes");
  Dims out;
  for (auto p : perm) out.push_back(x[p]);
  return {{TensorShape(out), in.In(0).type}};
}

std::vector<TensorInfo> Concat(const Inference& in) {
  if (in.layer().inputs.empty()) in.Fail("takes at least one input");
  const Dims& first = in.Shape(0);
  const std::size_t axis = in.Axis(in.Descriptor<ConcatDescriptor>().axis, first.size());
  Dims out = first;
  out[axis] = 0;
  for (std::size_t i = 0; i < in.layer().inputs.size(); ++i) {
    const Dims& shape = in.Shape(i);
    bool fits = shape.size() == first.size() && in.In(i).type == in.In(0).type;
    for (std::size_t a = 0; fits && a < shape.size(); ++a) fits = a == axis || shape[a] == first[a];
    if (!fits) {
      in.Fail("input " + std::to_string(i) + " " + ToString(in.In(i).type) + " " + ToString(in.In(i).shape) +
              " does not fit input 0 " + ToString(in.In(0).type) + " " + ToString(in.In(0).shape) +
              " outside axis " + std::to_string(axis));
    }
    out[axis] = in.Add(out[axis], shape[axis]);
  }
  return {{TensorShape(out), in.In(0).type}};
}

std::vector<TensorInfo> Split(const Inference& in) {
  in.Arity(1, 1);
  const auto& d = in.Descriptor<SplitDescriptor>();
  const Dims& x = in.Shape(0);
  const std::size_t axis = in.Axis(d.axis, x.size());
  const std::size_t count = in.layer().num_outputs;
  Dims sizes = d.sizes;
  if (sizes.empty()) {
    if (x[axis] % static_cast<std::int64_t>(count) != 0) {
      in.Fail("axis " + std::to_string(axis) + " of length " + std::to_string(x[axis]) +
              " does not split evenly into " + std::to_string(count) + " outputs");
    }
    sizes.assign(count, x[axis] / static_cast<std::int64_t>(count));
  }
  if (sizes.size() != count) {
    in.Fail(std::to_string(sizes.size()) + " sizes for " + std::to_string(count) + " outputs");
  }
  std::int64_t total = 0;
  for (const std::int64_t size : sizes) {
    if (size < 0) in.Fail("negative split size " + std::to_string(size));
    total = in.Add(total, size);
  }
  if (total != x[axis]) {
    in.Fail("the sizes do not add up to the length " + std::to_string(x[axis]) + " of axis " + std::to_string(axis));
  }
  std::vector<TensorInfo> outputs;
  for (auto size : sizes) {
    if (size < 0) in.Fail("negative split size");
    Dims out = x;
    out[axis] = size;
    outputs.push_back({TensorShape(out), in.In(0).type});
  }
  return outputs;
}

std::vector<TensorInfo> Slice(const Inference& in) {
  in.Arity(1, 1);
  const auto& d = in.Descriptor<SliceDescriptor>();
  const Dims& x = in.Shape(0);
  if (d.ends.size() != d.starts.size() || (!d.axes.empty() && d.axes.size() != d.starts.size()) ||
      (!d.steps.empty() && d.steps.size() != d.starts.size())) {
    in.Fail("starts, ends, axes and steps must have the same length");
  }
  Dims out = x;
  std::set<std::size_t> seen;
  for (std::size_t i = 0; i < d.starts.size(); ++i) {
    const std::size_t axis = in.Axis(d.axes.empty() ? static_cast<std::int64_t>(i) : d.axes[i], x.size());
    if (!seen.insert(axis).second) in.Fail("axis " + std::to_string(axis) + " is sliced twice");
    const std::int64_t step = d.steps.empty() ? 1 : d.steps[i];
    if (step == 0) in.Fail("a slice step must not be 0");
    const std::int64_t dim = x[axis];
    auto clamp = [&](std::int64_t v, std::int64_t lo, std::int64_t hi) {
      if (v < 0) v += dim;
      return std::min(std::max(v, lo), hi);
    };
    const std::int64_t start = step > 0 ? clamp(d.starts[i], 0, dim) : clamp(d.starts[i], -1, dim - 1);
    const std::int64_t end = step > 0 ? clamp(d.ends[i], 0, dim) : clamp(d.ends[i], -1, dim - 1);
    // The element count from start toward end, without overflow for any step (INT64_MIN too).
    const std::int64_t span = step > 0 ? end - start : start - end;
    const std::uint64_t magnitude =
        step > 0 ? static_cast<std::uint64_t>(step) : 0 - static_cast<std::uint64_t>(step);
    out[axis] = span <= 0 ? 0 : static_cast<std::int64_t>((static_cast<std::uint64_t>(span) - 1) / magnitude + 1);
  }
  return {{TensorShape(out), in.In(0).type}};
}

std::vector<TensorInfo> Gather(const Inference& in) {
  in.Arity(2, 2);
  const Dims& x = in.Shape(0);
  const std::size_t axis = in.Axis(in.Descriptor<GatherDescriptor>().axis, x.size());
  if (in.In(1).type != DataType::kInt32 && in.In(1).type != DataType::kInt64) {
    in.Fail(std::string("indices must be i32 or i64, not ") + ToString(in.In(1).type));
  }
  Dims out(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(axis));
  const Dims& indices = in.Shape(1);
  out.insert(out.end(), indices.begin(), indices.end());
  out.insert(out.end(), x.begin() + static_cast<std::ptrdiff_t>(axis) + 1, x.end());
  return {{TensorShape(out), in.In(0).type}};
}

std::vector<TensorInfo> Pad(const Inference& in) {
  in.Arity(1, 1);
  const auto& d = in.Descriptor<PadDescriptor>();
  const Dims& x = in.Shape(0);
  if (d.pads.size() != 2 * x.size()) {
    in.Fail(std::to_string(d.pads.size()) + " pads for rank " + std::to_string(x.size()) + "; need " +
            std::to_string(2 * x.size()) + " (all begins, then all ends)");
  }
  Dims out = x;
  for (std::size_t i = 0; i < x.size(); ++i) {
    // Pads may be negative (cropping): add one at a time, keeping the extent non-negative.
    for (const std::int64_t pad : {d.pads[i], d.pads[i + x.size()]}) {
      out[i] = pad >= 0 ? in.Add(out[i], pad) : out[i] + pad;
      if (out[i] < 0) in.Fail("pads " + ToString(TensorShape(d.pads)) + " make axis " + std::to_string(i) + " negative");
    }
  }
  return {{TensorShape(out), in.In(0).type}};
}

std::vector<TensorInfo> Cast(const Inference& in) {
  in.Arity(1, 1);
  return {{in.In(0).shape, in.Descriptor<CastDescriptor>().to}};
}

std::vector<TensorInfo> InferOutputInfosUnchecked(const Layer& layer) {
  const Inference in(layer);
  switch (layer.type) {
    case LayerType::kInput:
    case LayerType::kConstant:
    case LayerType::kPreCompiled:
      return layer.output_infos;  // given, not inferred
    case LayerType::kOutput:
      in.Arity(1, 1);
      return {};
    case LayerType::kConvolution2d: return Convolution2d(in);
    case LayerType::kFullyConnected: return FullyConnected(in);
    case LayerType::kMatMul: return MatMul(in);
    case LayerType::kPooling2d: return Pooling2d(in);
    case LayerType::kActivation:
    case LayerType::kElementwiseUnary: return SameAsInput(in);
    case LayerType::kElementwiseBinary: return ElementwiseBinary(in);
    case LayerType::kSoftmax: return Softmax(in);
    case LayerType::kBatchNormalization: return BatchNormalization(in);
    case LayerType::kLayerNormalization: return LayerNormalization(in);
    case LayerType::kReduce: return Reduce(in);
    case LayerType::kReshape: return Reshape(in);
    case LayerType::kFlatten: return Flatten(in);
    case LayerType::kTranspose: return Transpose(in);
    case LayerType::kConcat: return Concat(in);
    case LayerType::kSplit: return Split(in);
    case LayerType::kSlice: return Slice(in);
    case LayerType::kGather: return Gather(in);
    case LayerType::kPad: return Pad(in);
    case LayerType::kCast: return Cast(in);
    case LayerType::kCount: break;
  }
  in.Fail("has an unknown layer type");
}

}  // namespace

std::vector<TensorInfo> InferOutputInfos(const Layer& layer) {
  std::vector<TensorInfo> infos = InferOutputInfosUnchecked(layer);
  // Every shape in a graph has an element count (and so every partial product of its
  // dimensions) that fits: what reads it later needs no checks of its own.
  for (const auto& info : infos) CheckedNumBytes(info.shape.Dims(), info.type, "layer " + layer.Describe());
  return infos;
}

}  // namespace backplane::graph
