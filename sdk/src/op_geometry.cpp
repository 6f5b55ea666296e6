#include <backplane/backend/broadcast.hpp>
#include <backplane/backend/op_geometry.hpp>

#include <algorithm>

namespace backplane::backend {

namespace {

// "<LayerType> layer '<name>': <what>"; always returns false.
bool Fail(std::string& reason, const ILayerView& layer, const std::string& what) {
  reason = std::string(ToString(layer.GetType())) + " layer '" + layer.GetName() + "': " + what;
  return false;
}

// The layer's descriptor as a `Descriptor`, or null (with a reason) when the layer is of
// another type or has none.
template <typename Descriptor>
const Descriptor* DescriptorFor(const ILayerView& layer, std::string& reason) {
  if (layer.GetType() != Descriptor::kType) {
    Fail(reason, layer, std::string("expected a ") + ToString(Descriptor::kType) + " layer");
    return nullptr;
  }
  if (!layer.GetDescriptor()) {
    Fail(reason, layer, "no descriptor");
    return nullptr;
  }
  return static_cast<const Descriptor*>(layer.GetDescriptor());
}

std::string ListText(const std::vector<std::uint32_t>& values) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) text += (i ? "," : "") + std::to_string(values[i]);
  return text + "]";
}

TensorShape Leading(const TensorShape& shape, std::size_t drop) {
  const auto end = shape.Dims().end() - static_cast<std::ptrdiff_t>(drop);
  return TensorShape(std::vector<std::int64_t>(shape.Dims().begin(), end));
}

// True when `param`, aligned to the last dimensions of `x`, covers exactly the normalized
// dimensions axis..last: size 1 before `axis`, the dimensions of `x` from `axis` on (leading
// 1s may be left out). Its elements then line up with one normalized row.
bool CoversNormalizedShape(const TensorShape& param, const TensorShape& x, std::size_t axis) {
  if (!BroadcastsTo(param, x)) return false;
  const std::size_t lead = x.Rank() - param.Rank();
  std::int64_t row = 1;
  for (std::size_t d = axis; d < x.Rank(); ++d) row *= x[d];
  for (std::size_t i = 0; i < param.Rank(); ++i) {
    if (lead + i < axis && param[i] != 1) return false;
  }
  return param.NumElements() == row;
}

}  // namespace

bool HasArity(const ILayerView& layer, std::size_t min_inputs, std::size_t max_inputs, std::size_t outputs,
              std::string& reason) {
  const std::size_t n = layer.GetNumInputs();
  if (n < min_inputs || n > max_inputs) {
    reason = std::string(ToString(layer.GetType())) + " takes " +
             (min_inputs == max_inputs ? std::to_string(min_inputs)
                                       : std::to_string(min_inputs) + " to " + std::to_string(max_inputs)) +
             " inputs, layer '" + layer.GetName() + "' has " + std::to_string(n);
    return false;
  }
  if (layer.GetNumOutputs() != outputs) {
    reason = std::string(ToString(layer.GetType())) + " has " + std::to_string(outputs) + " outputs, layer '" +
             layer.GetName() + "' has " + std::to_string(layer.GetNumOutputs());
    return false;
  }
  return true;
}

bool NormalizeAxis(std::int64_t axis, std::size_t rank, std::size_t& out) {
  const auto r = static_cast<std::int64_t>(rank);
  if (axis < -r || axis >= r) return false;
  out = static_cast<std::size_t>(axis < 0 ? axis + r : axis);
  return true;
}

bool WindowOutputExtent(std::int64_t size, std::int64_t pad_begin, std::int64_t pad_end, std::int64_t kernel,
                        std::int64_t stride, std::int64_t dilation, bool ceil_mode, std::int64_t& out) {
  const std::int64_t span = dilation * (kernel - 1) + 1;
  const std::int64_t room = size + pad_begin + pad_end - span;
  if (room < 0) return false;
  out = (ceil_mode ? (room + stride - 1) / stride : room / stride) + 1;
  // A last window that would start past the input and the leading padding is dropped.
  if (ceil_mode && (out - 1) * stride >= size + pad_begin) --out;
  return true;
}

bool DescribeConvolution(const ILayerView& layer, ConvGeometry& g, std::string& reason) {
  const auto* d = DescriptorFor<Convolution2dDescriptor>(layer, reason);
  if (!d || !HasArity(layer, 2, 3, 1, reason)) return false;
  const TensorShape& x = layer.GetInputInfo(0).shape;
  const TensorShape& w = layer.GetInputInfo(1).shape;
  if (x.Rank() != 4) return Fail(reason, layer, "input must be [N, C, H, W], got " + ToString(x));
  if (w.Rank() != 4) return Fail(reason, layer, "weights must be [M, C/groups, kH, kW], got " + ToString(w));
  for (std::size_t i = 0; i < 2; ++i) {
    if (d->strides[i] == 0 || d->dilations[i] == 0) {
      return Fail(reason, layer, "strides and dilations must be at least 1");
    }
  }
  if (d->groups == 0) return Fail(reason, layer, "groups must be at least 1");
  const std::int64_t groups = d->groups;
  if (x[1] % groups != 0) {
    return Fail(reason, layer, "input channels " + std::to_string(x[1]) + " are not divisible by groups " +
                                   std::to_string(groups));
  }
  if (w[0] % groups != 0) {
    return Fail(reason, layer, "output channels " + std::to_string(w[0]) + " are not divisible by groups " +
                                   std::to_string(groups));
  }
  if (w[1] != x[1] / groups) {
    return Fail(reason, layer, "weights " + ToString(w) + " need C/groups = " + std::to_string(x[1] / groups) +
                                   " in dimension 1");
  }
  if (w[2] < 1 || w[3] < 1) return Fail(reason, layer, "empty kernel " + ToString(w));
  if (layer.GetNumInputs() == 3) {
    const TensorShape& b = layer.GetInputInfo(2).shape;
    if (b.Rank() != 1 || b[0] != w[0]) {
      return Fail(reason, layer, "bias must be [" + std::to_string(w[0]) + "], got " + ToString(b));
    }
  }
  g = ConvGeometry{};
  g.batch = x[0];
  g.channels = x[1];
  g.height = x[2];
  g.width = x[3];
  g.out_channels = w[0];
  g.kernel_h = w[2];
  g.kernel_w = w[3];
  g.groups = groups;
  g.stride_h = d->strides[0];
  g.stride_w = d->strides[1];
  g.dilation_h = d->dilations[0];
  g.dilation_w = d->dilations[1];
  g.pad_top = d->pads[0];
  g.pad_left = d->pads[1];
  if (!WindowOutputExtent(x[2], d->pads[0], d->pads[2], w[2], d->strides[0], d->dilations[0], false,
                          g.out_height) ||
      !WindowOutputExtent(x[3], d->pads[1], d->pads[3], w[3], d->strides[1], d->dilations[1], false,
                          g.out_width)) {
    return Fail(reason, layer, "the dilated kernel " + ToString(w) + " does not fit the padded input " + ToString(x));
  }
  const TensorShape expected{x[0], w[0], g.out_height, g.out_width};
  if (layer.GetOutputInfo(0).shape != expected) {
    return Fail(reason, layer, "output shape " + ToString(layer.GetOutputInfo(0).shape) + " should be " +
                                   ToString(expected));
  }
  return true;
}

bool DescribePooling(const ILayerView& layer, PoolingGeometry& g, std::string& reason) {
  const auto* d = DescriptorFor<Pooling2dDescriptor>(layer, reason);
  if (!d || !HasArity(layer, 1, 1, 1, reason)) return false;
  const TensorShape& x = layer.GetInputInfo(0).shape;
  if (x.Rank() != 4) return Fail(reason, layer, "input must be [N, C, H, W], got " + ToString(x));
  if (d->type != PoolingType::kMax && d->type != PoolingType::kAverage) {
    return Fail(reason, layer, "pooling type " + std::to_string(static_cast<std::uint32_t>(d->type)) +
                                   " is neither max nor average");
  }
  g.batch = x[0];
  g.channels = x[1];
  if (d->global) {
    g.rows = {x[2], x[2], 1, 1, 0, 0, 1};
    g.cols = {x[3], x[3], 1, 1, 0, 0, 1};
    if (x[2] == 0 || x[3] == 0) return Fail(reason, layer, "global pooling of an empty plane " + ToString(x));
  } else {
    for (std::size_t i = 0; i < 2; ++i) {
      if (d->kernel[i] == 0 || d->strides[i] == 0 || d->dilations[i] == 0) {
        return Fail(reason, layer, "kernel, strides and dilations must be at least 1");
      }
    }
    g.rows = {x[2], d->kernel[0], d->strides[0], d->dilations[0], d->pads[0], d->pads[2], 0};
    g.cols = {x[3], d->kernel[1], d->strides[1], d->dilations[1], d->pads[1], d->pads[3], 0};
    for (PoolAxis* axis : {&g.rows, &g.cols}) {
      if (!WindowOutputExtent(axis->size, axis->pad_begin, axis->pad_end, axis->kernel, axis->stride, axis->dilation,
                              d->ceil_mode, axis->out)) {
        return Fail(reason, layer, "the dilated kernel does not fit the padded input " + ToString(x));
      }
    }
  }
  const TensorShape expected{x[0], x[1], g.rows.out, g.cols.out};
  if (layer.GetOutputInfo(0).shape != expected) {
    return Fail(reason, layer, "output shape " + ToString(layer.GetOutputInfo(0).shape) + " should be " +
                                   ToString(expected));
  }
  return true;
}

bool DescribeMatMul(const ILayerView& layer, MatMulGeometry& g, std::string& reason) {
  if (layer.GetType() != LayerType::kMatMul) {
    return Fail(reason, layer, std::string("expected a ") + ToString(LayerType::kMatMul) + " layer");
  }
  if (!HasArity(layer, 2, 2, 1, reason)) return false;
  const TensorShape& a = layer.GetInputInfo(0).shape;
  const TensorShape& b = layer.GetInputInfo(1).shape;
  if (a.Rank() == 0 || b.Rank() == 0) return Fail(reason, layer, "operands must have rank 1 or more (numpy.matmul)");
  const bool a_vector = a.Rank() == 1;
  const bool b_vector = b.Rank() == 1;
  g.m = a_vector ? 1 : a[a.Rank() - 2];
  g.k = a[a.Rank() - 1];
  const std::int64_t b_k = b_vector ? b[0] : b[b.Rank() - 2];
  g.n = b_vector ? 1 : b[b.Rank() - 1];
  if (b_k != g.k) {
    return Fail(reason, layer, "A " + ToString(a) + " has K = " + std::to_string(g.k) + " but B " + ToString(b) +
                                   " has K = " + std::to_string(b_k));
  }
  g.a_batch = a_vector ? TensorShape{} : Leading(a, 2);
  g.b_batch = b_vector ? TensorShape{} : Leading(b, 2);
  std::string clash;
  if (!BroadcastShapes(g.a_batch, g.b_batch, g.batch, clash)) return Fail(reason, layer, "batch dimensions: " + clash);
  std::vector<std::int64_t> output = g.batch.Dims();
  if (!a_vector) output.push_back(g.m);
  if (!b_vector) output.push_back(g.n);
  g.output = TensorShape(std::move(output));
  if (layer.GetOutputInfo(0).shape != g.output) {
    return Fail(reason, layer, "output shape " + ToString(layer.GetOutputInfo(0).shape) + " should be " +
                                   ToString(g.output));
  }
  return true;
}

bool DescribeGemm(const ILayerView& layer, GemmGeometry& g, std::string& reason) {
  const auto* d = DescriptorFor<FullyConnectedDescriptor>(layer, reason);
  if (!d || !HasArity(layer, 2, 3, 1, reason)) return false;
  const TensorShape& a = layer.GetInputInfo(0).shape;
  const TensorShape& b = layer.GetInputInfo(1).shape;
  if (a.Rank() != 2) return Fail(reason, layer, "A must be a matrix, got " + ToString(a));
  if (b.Rank() != 2) return Fail(reason, layer, "B must be a matrix, got " + ToString(b));
  g.m = d->transpose_a ? a[1] : a[0];
  g.k = d->transpose_a ? a[0] : a[1];
  const std::int64_t b_k = d->transpose_b ? b[1] : b[0];
  g.n = d->transpose_b ? b[0] : b[1];
  if (b_k != g.k) {
    return Fail(reason, layer, "op(A) of " + ToString(a) + " has K = " + std::to_string(g.k) + " but op(B) of " +
                                   ToString(b) + " has K = " + std::to_string(b_k));
  }
  const TensorShape expected{g.m, g.n};
  if (layer.GetNumInputs() == 3 && !BroadcastsTo(layer.GetInputInfo(2).shape, expected)) {
    return Fail(reason, layer, "C " + ToString(layer.GetInputInfo(2).shape) + " does not broadcast to " +
                                   ToString(expected));
  }
  if (layer.GetOutputInfo(0).shape != expected) {
    return Fail(reason, layer, "output shape " + ToString(layer.GetOutputInfo(0).shape) + " should be " +
                                   ToString(expected));
  }
  return true;
}

bool DescribeSlice(const ILayerView& layer, SliceGeometry& g, std::string& reason) {
  const auto* d = DescriptorFor<SliceDescriptor>(layer, reason);
  if (!d || !HasArity(layer, 1, 1, 1, reason)) return false;
  const TensorShape& shape = layer.GetInputInfo(0).shape;
  const std::size_t n = d->starts.size();
  if (d->ends.size() != n || (!d->axes.empty() && d->axes.size() != n) || (!d->steps.empty() && d->steps.size() != n)) {
    return Fail(reason, layer, std::to_string(n) + " starts, " + std::to_string(d->ends.size()) + " ends, " +
                                   std::to_string(d->axes.size()) + " axes and " + std::to_string(d->steps.size()) +
                                   " steps; ends, and axes and steps when given, need one per start");
  }
  const std::size_t rank = shape.Rank();
  g.start.assign(rank, 0);
  g.step.assign(rank, 1);
  std::vector<std::int64_t> count = shape.Dims();
  std::vector<bool> seen(rank, false);
  for (std::size_t i = 0; i < n; ++i) {
    const std::int64_t axis_value = d->axes.empty() ? static_cast<std::int64_t>(i) : d->axes[i];
    std::size_t axis = 0;
    if (!NormalizeAxis(axis_value, rank, axis)) {
      return Fail(reason, layer, "axis " + std::to_string(axis_value) + " is out of range for input " +
                                     ToString(shape) + " of rank " + std::to_string(rank));
    }
    if (seen[axis]) {
      return Fail(reason, layer, "axis " + std::to_string(axis) + " of " + ToString(shape) + " is named twice");
    }
    seen[axis] = true;
    std::int64_t step = d->steps.empty() ? 1 : d->steps[i];
    if (step == 0) return Fail(reason, layer, "step for axis " + std::to_string(axis_value) + " is 0");
    const std::int64_t dim = shape[axis];
    // A step longer than the axis selects at most one element either way; bounding it keeps
    // the arithmetic below from overflowing.
    step = std::clamp<std::int64_t>(step, -(dim + 1), dim + 1);
    std::int64_t start = d->starts[i];
    std::int64_t end = d->ends[i];
    if (start < 0) start += dim;
    if (end < 0) end += dim;
    if (step > 0) {
      start = std::clamp<std::int64_t>(start, 0, dim);
      end = std::clamp<std::int64_t>(end, 0, dim);
    } else {
      start = std::clamp<std::int64_t>(start, 0, dim - 1);
      end = std::clamp<std::int64_t>(end, -1, dim - 1);
    }
    // Exact ceiling of a quotient of two values of the same sign; both now lie within [-1, dim].
    const std::int64_t span = end - start;
    std::int64_t kept = 0;
    if (step > 0 && span > 0) kept = (span + step - 1) / step;
    if (step < 0 && span < 0) kept = (-span + -step - 1) / -step;
    g.start[axis] = kept > 0 ? start : 0;
    g.step[axis] = step;
    count[axis] = kept;
  }
  g.output = TensorShape(std::move(count));
  if (layer.GetOutputInfo(0).shape != g.output) {
    return Fail(reason, layer, "output " + ToString(layer.GetOutputInfo(0).shape) + " is not " + ToString(g.output) +
                                   ", the slice of input " + ToString(shape));
  }
  const auto dense = DenseStrides(shape);
  g.first = 0;
  g.read_strides.assign(rank, 0);
  for (std::size_t axis = 0; axis < rank; ++axis) {
    g.first += g.start[axis] * dense[axis];
    g.read_strides[axis] = g.step[axis] * dense[axis];
  }
  return true;
}

bool DescribeTranspose(const ILayerView& layer, TransposeGeometry& g, std::string& reason) {
  const auto* d = DescriptorFor<TransposeDescriptor>(layer, reason);
  if (!d || !HasArity(layer, 1, 1, 1, reason)) return false;
  const TensorShape& in = layer.GetInputInfo(0).shape;
  const TensorShape& out = layer.GetOutputInfo(0).shape;
  const std::size_t rank = in.Rank();
  g.permutation = d->permutation;
  if (g.permutation.empty()) {
    for (std::size_t i = 0; i < rank; ++i) g.permutation.push_back(static_cast<std::uint32_t>(rank - 1 - i));
  }
  const std::vector<std::uint32_t>& permutation = g.permutation;
  if (permutation.size() != rank) {
    return Fail(reason, layer, "permutation " + ListText(permutation) + " has " + std::to_string(permutation.size()) +
                                   " entries, input " + ToString(in) + " has rank " + std::to_string(rank));
  }
  std::vector<bool> seen(rank, false);
  std::vector<std::int64_t> expected;
  for (const std::uint32_t axis : permutation) {
    if (axis >= rank || seen[axis]) {
      return Fail(reason, layer, "permutation " + ListText(permutation) + " is not a permutation of 0.." +
                                     std::to_string(rank - 1) + " (axis " + std::to_string(axis) +
                                     (axis >= rank ? " is out of range)" : " repeats)"));
    }
    seen[axis] = true;
    expected.push_back(in[axis]);
  }
  if (out != TensorShape(expected)) {
    return Fail(reason, layer, "output " + ToString(out) + " is not " + ToString(TensorShape(expected)) + ", input " +
                                   ToString(in) + " permuted by " + ListText(permutation));
  }
  const auto in_strides = DenseStrides(in);
  g.read_strides.assign(rank, 0);
  for (std::size_t i = 0; i < rank; ++i) g.read_strides[i] = in_strides[permutation[i]];
  return true;
}

bool CheckReshape(const ILayerView& layer, std::string& reason) {
  const auto* d = DescriptorFor<ReshapeDescriptor>(layer, reason);
  if (!d || !HasArity(layer, 1, 1, 1, reason)) return false;
  const TensorShape& in = layer.GetInputInfo(0).shape;
  const TensorShape& out = layer.GetOutputInfo(0).shape;
  if (in.NumElements() != out.NumElements()) {
    return Fail(reason, layer, "output " + ToString(out) + " has " + std::to_string(out.NumElements()) +
                                   " elements, input " + ToString(in) + " has " + std::to_string(in.NumElements()));
  }
  const auto& requested = d->shape;
  const std::string requested_text = ToString(TensorShape(requested));
  if (requested.size() != out.Rank()) {
    return Fail(reason, layer, "output " + ToString(out) + " does not have the rank of the requested shape " +
                                   requested_text);
  }
  std::size_t inferred = 0;
  for (std::size_t i = 0; i < requested.size(); ++i) {
    const std::int64_t want = requested[i];
    bool matches = want == out[i];
    if (want == 0) matches = i < in.Rank() && out[i] == in[i];
    if (want == -1) matches = ++inferred == 1;
    if (want < -1) matches = false;
    if (!matches) {
      return Fail(reason, layer, "output " + ToString(out) + " does not match the requested shape " +
                                     requested_text + " of input " + ToString(in) + " at dimension " +
                                     std::to_string(i));
    }
  }
  return true;
}

bool DescribeFlatten(const ILayerView& layer, FlattenGeometry& g, std::string& reason) {
  const auto* d = DescriptorFor<FlattenDescriptor>(layer, reason);
  if (!d || !HasArity(layer, 1, 1, 1, reason)) return false;
  const TensorShape& in = layer.GetInputInfo(0).shape;
  // ONNX allows axis == rank (everything in the first dimension).
  const auto rank = static_cast<std::int64_t>(in.Rank());
  const std::int64_t axis = d->axis;
  if (axis < -rank || axis > rank) {
    return Fail(reason, layer, "axis " + std::to_string(axis) + " is out of range [-" + std::to_string(rank) + ", " +
                                   std::to_string(rank) + "] for input " + ToString(in));
  }
  g.axis = static_cast<std::size_t>(axis < 0 ? axis + rank : axis);
  g.outer = 1;
  g.inner = 1;
  for (std::size_t i = 0; i < in.Rank(); ++i) (i < g.axis ? g.outer : g.inner) *= in[i];
  const TensorShape expected{g.outer, g.inner};
  if (layer.GetOutputInfo(0).shape != expected) {
    return Fail(reason, layer, "output " + ToString(layer.GetOutputInfo(0).shape) + " is not " + ToString(expected) +
                                   ", input " + ToString(in) + " flattened at axis " + std::to_string(axis));
  }
  return true;
}

bool DescribeSplit(const ILayerView& layer, SplitGeometry& g, std::string& reason) {
  const auto* d = DescriptorFor<SplitDescriptor>(layer, reason);
  if (!d) return false;
  const std::size_t outputs = layer.GetNumOutputs();
  if (outputs == 0) return Fail(reason, layer, "a Split has at least 1 output, this one has none");
  if (!HasArity(layer, 1, 1, outputs, reason)) return false;
  const TensorShape& in = layer.GetInputInfo(0).shape;
  if (!NormalizeAxis(d->axis, in.Rank(), g.axis)) {
    return Fail(reason, layer, "axis " + std::to_string(d->axis) + " is out of range for input " + ToString(in) +
                                   " of rank " + std::to_string(in.Rank()));
  }
  const std::size_t a = g.axis;
  const std::int64_t length = in[a];
  const auto& sizes = d->sizes;
  if (sizes.empty()) {
    if (length % static_cast<std::int64_t>(outputs) != 0) {
      return Fail(reason, layer, "without sizes, axis " + std::to_string(a) + " of length " + std::to_string(length) +
                                     " (input " + ToString(in) + ") does not divide into " + std::to_string(outputs) +
                                     " equal parts");
    }
    g.parts.assign(outputs, length / static_cast<std::int64_t>(outputs));
  } else {
    if (sizes.size() != outputs) {
      return Fail(reason, layer, std::to_string(sizes.size()) + " sizes " + ToString(TensorShape(sizes)) + " for " +
                                     std::to_string(outputs) + " outputs");
    }
    std::int64_t total = 0;
    for (const std::int64_t size : sizes) {
      if (size < 0) {
        return Fail(reason, layer, "sizes " + ToString(TensorShape(sizes)) + " contain the negative size " +
                                       std::to_string(size));
      }
      total += size;
    }
    if (total != length) {
      return Fail(reason, layer, "sizes " + ToString(TensorShape(sizes)) + " sum to " + std::to_string(total) +
                                     ", axis " + std::to_string(a) + " of input " + ToString(in) + " has length " +
                                     std::to_string(length));
    }
    g.parts = sizes;
  }
  for (std::size_t i = 0; i < outputs; ++i) {
    std::vector<std::int64_t> expected = in.Dims();
    expected[a] = g.parts[i];
    if (layer.GetOutputInfo(i).shape != TensorShape(expected)) {
      return Fail(reason, layer, "output " + std::to_string(i) + " " + ToString(layer.GetOutputInfo(i).shape) +
                                     " is not " + ToString(TensorShape(expected)) + ", part " + std::to_string(i) +
                                     " of " + ToString(in) + " along axis " + std::to_string(d->axis));
    }
  }
  g.outer = 1;
  g.inner = 1;
  for (std::size_t i = 0; i < a; ++i) g.outer *= in[i];
  for (std::size_t i = a + 1; i < in.Rank(); ++i) g.inner *= in[i];
  return true;
}

bool DescribeLayerNormalization(const ILayerView& layer, LayerNormGeometry& g, std::string& reason) {
  const auto* d = DescriptorFor<LayerNormalizationDescriptor>(layer, reason);
  if (!d || !HasArity(layer, 2, 3, 1, reason)) return false;
  const TensorShape& shape = layer.GetInputInfo(0).shape;
  if (!NormalizeAxis(d->axis, shape.Rank(), g.axis)) {
    return Fail(reason, layer, "axis " + std::to_string(d->axis) + " is out of range for input " + ToString(shape) +
                                   " of rank " + std::to_string(shape.Rank()));
  }
  const TensorShape normalized(
      std::vector<std::int64_t>(shape.Dims().begin() + static_cast<std::ptrdiff_t>(g.axis), shape.Dims().end()));
  static const char* const kNames[] = {"x", "scale", "bias"};
  for (std::size_t i = 1; i < layer.GetNumInputs(); ++i) {
    if (!CoversNormalizedShape(layer.GetInputInfo(i).shape, shape, g.axis)) {
      return Fail(reason, layer, std::string(kNames[i]) + " (input " + std::to_string(i) + ") has shape " +
                                     ToString(layer.GetInputInfo(i).shape) + ", expected the normalized shape " +
                                     ToString(normalized) + " of " + ToString(shape) + " from axis " +
                                     std::to_string(d->axis));
    }
  }
  if (layer.GetOutputInfo(0).shape != shape) {
    return Fail(reason, layer, "output shape " + ToString(layer.GetOutputInfo(0).shape) +
                                   " differs from input shape " + ToString(shape));
  }
  g.rows = 1;
  g.size = 1;
  for (std::size_t i = 0; i < g.axis; ++i) g.rows *= shape[i];
  for (std::size_t i = g.axis; i < shape.Rank(); ++i) g.size *= shape[i];
  return true;
}

}  // namespace backplane::backend
