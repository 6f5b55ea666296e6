#include <backplane/backend/broadcast.hpp>
#include <backplane/backend/op_geometry.hpp>
#include <backplane/backend/op_schema.hpp>
#include <backplane/checked_size.hpp>
#include <backplane/descriptors.hpp>

#include <algorithm>

namespace backplane::backend {

namespace {

// True when `layer` is of `type` and keeps op set v1's rules (the op schema), else false with
// the reason. After it, the layer's descriptor (where its type has one) may be read.
bool Checked(const ILayerView& layer, LayerType type, std::string& reason) {
  if (layer.GetType() != type) {
    reason = std::string("expected a ") + ToString(type) + " layer, not " + ToString(layer.GetType());
    return false;
  }
  return CheckLayer(layer, reason);
}

template <typename Descriptor>
const Descriptor* Checked(const ILayerView& layer, std::string& reason) {
  if (!Checked(layer, Descriptor::kType, reason)) return nullptr;
  return static_cast<const Descriptor*>(layer.GetDescriptor());
}

TensorShape Leading(const TensorShape& shape, std::size_t drop) {
  const auto end = shape.Dims().end() - static_cast<std::ptrdiff_t>(drop);
  return TensorShape(std::vector<std::int64_t>(shape.Dims().begin(), end));
}

}  // namespace

bool NormalizeAxis(std::int64_t axis, std::size_t rank, std::size_t& out) {
  const auto r = static_cast<std::int64_t>(rank);
  if (axis < -r || axis >= r) return false;
  out = static_cast<std::size_t>(axis < 0 ? axis + r : axis);
  return true;
}

AxisExtents ExtentsAroundAxis(const TensorShape& shape, std::size_t axis) {
  AxisExtents extents;
  for (std::size_t i = 0; i < shape.Rank(); ++i) {
    std::int64_t& part = i < axis ? extents.outer : i == axis ? extents.length : extents.inner;
    part *= shape[i];
  }
  return extents;
}

bool WindowOutputExtent(std::int64_t size, std::int64_t pad_begin, std::int64_t pad_end, std::int64_t kernel,
                        std::int64_t stride, std::int64_t dilation, bool ceil_mode, std::int64_t& out) {
  const auto reach = TryMulDims(dilation, kernel - 1);
  const auto span = reach ? TryAddDims(*reach, 1) : std::nullopt;
  const auto padded_begin = TryAddDims(size, pad_begin);
  const auto padded = padded_begin ? TryAddDims(*padded_begin, pad_end) : std::nullopt;
  if (!span || !padded || *padded < *span) return false;
  const std::int64_t room = *padded - *span;
  out = (ceil_mode ? room / stride + (room % stride != 0) : room / stride) + 1;
  // A last window that would start past the input and the leading padding is dropped.
  if (ceil_mode && (out - 1) * stride >= *padded_begin) --out;
  return true;
}

SliceAxis SliceWindow(std::int64_t dim, std::int64_t start, std::int64_t end, std::int64_t step) {
  // A step longer than the axis selects at most one element either way; bounding it keeps the
  // arithmetic below from overflowing.
  step = std::clamp<std::int64_t>(step, -(dim + 1), dim + 1);
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
  return {kept > 0 ? start : 0, step, kept};
}

bool DescribeConvolution(const ILayerView& layer, ConvGeometry& g, std::string& reason) {
  const auto* d = Checked<Convolution2dDescriptor>(layer, reason);
  if (!d) return false;
  const TensorShape& x = layer.GetInputInfo(0).shape;
  const TensorShape& w = layer.GetInputInfo(1).shape;
  const TensorShape& y = layer.GetOutputInfo(0).shape;
  g = ConvGeometry{};
  g.batch = x[0];
  g.channels = x[1];
  g.height = x[2];
  g.width = x[3];
  g.out_channels = w[0];
  g.kernel_h = w[2];
  g.kernel_w = w[3];
  g.groups = d->groups;
  g.stride_h = d->strides[0];
  g.stride_w = d->strides[1];
  g.dilation_h = d->dilations[0];
  g.dilation_w = d->dilations[1];
  g.pad_top = d->pads[0];
  g.pad_left = d->pads[1];
  g.out_height = y[2];
  g.out_width = y[3];
  return true;
}

namespace {
template <typename Extent>
std::int64_t ProductOf(const std::vector<ConvTransposeAxis>& axes, Extent extent) {
  std::int64_t product = 1;
  for (const ConvTransposeAxis& axis : axes) product *= extent(axis);
  return product;
}
}  // namespace

std::int64_t ConvTransposeGeometry::InSpatial() const {
  return ProductOf(axes, [](const ConvTransposeAxis& a) { return a.size; });
}
std::int64_t ConvTransposeGeometry::OutSpatial() const {
  return ProductOf(axes, [](const ConvTransposeAxis& a) { return a.out; });
}
std::int64_t ConvTransposeGeometry::KernelSpatial() const {
  return ProductOf(axes, [](const ConvTransposeAxis& a) { return a.kernel; });
}

bool DescribeConvolutionTranspose(const ILayerView& layer, ConvTransposeGeometry& g, std::string& reason) {
  const auto* d = Checked<ConvolutionTransposeDescriptor>(layer, reason);
  if (!d) return false;
  const TensorShape& x = layer.GetInputInfo(0).shape;
  const TensorShape& w = layer.GetInputInfo(1).shape;
  const TensorShape& y = layer.GetOutputInfo(0).shape;
  g = ConvTransposeGeometry{};
  g.batch = x[0];
  g.channels = x[1];
  g.out_channels = y[1];
  g.groups = d->groups;
  for (std::size_t a = 0; a + 2 < x.Rank(); ++a) {
    g.axes.push_back({x[a + 2], w[a + 2], d->strides[a], d->dilations[a], d->pads[a], y[a + 2]});
  }
  return true;
}

bool DescribePooling(const ILayerView& layer, PoolingGeometry& g, std::string& reason) {
  const auto* d = Checked<Pooling2dDescriptor>(layer, reason);
  if (!d) return false;
  const TensorShape& x = layer.GetInputInfo(0).shape;
  const TensorShape& y = layer.GetOutputInfo(0).shape;
  g.batch = x[0];
  g.channels = x[1];
  if (d->global) {
    g.rows = {x[2], x[2], 1, 1, 0, 0, 1};
    g.cols = {x[3], x[3], 1, 1, 0, 0, 1};
  } else {
    g.rows = {x[2], d->kernel[0], d->strides[0], d->dilations[0], d->pads[0], d->pads[2], y[2]};
    g.cols = {x[3], d->kernel[1], d->strides[1], d->dilations[1], d->pads[1], d->pads[3], y[3]};
  }
  return true;
}

std::int64_t ProductOfAxes(const std::vector<PoolAxis>& axes, std::int64_t PoolAxis::*field) {
  std::int64_t product = 1;
  for (const PoolAxis& axis : axes) product *= axis.*field;
  return product;
}

namespace {
// The spatial axes of an N-D window over x, output y and kernel extents `kernel` (global: the
// whole axis, one output).
std::vector<PoolAxis> WindowAxes(const TensorShape& x, const TensorShape& y, const std::vector<std::int64_t>& kernel,
                                 const std::vector<std::uint32_t>& strides, const std::vector<std::uint32_t>& dilations,
                                 const std::vector<std::uint32_t>& pads, bool global) {
  const std::size_t rank = x.Rank() - 2;
  std::vector<PoolAxis> axes;
  for (std::size_t a = 0; a < rank; ++a) {
    const std::int64_t size = x[a + 2];
    if (global) {
      axes.push_back({size, size, 1, 1, 0, 0, 1});
    } else {
      axes.push_back({size, kernel[a], strides[a], dilations[a], pads[a], pads[rank + a], y[a + 2]});
    }
  }
  return axes;
}
}  // namespace

namespace {

// ConvolutionNd's and ConvolutionInteger's geometry: one descriptor shape, one walk.
template <typename Descriptor>
bool DescribeConvolutionWindows(const ILayerView& layer, ConvNdGeometry& g, std::string& reason) {
  const auto* d = Checked<Descriptor>(layer, reason);
  if (!d) return false;
  const TensorShape& x = layer.GetInputInfo(0).shape;
  const TensorShape& w = layer.GetInputInfo(1).shape;
  g = ConvNdGeometry{};
  g.batch = x[0];
  g.channels = x[1];
  g.out_channels = w[0];
  g.groups = d->groups;
  const std::vector<std::int64_t> kernel(w.Dims().begin() + 2, w.Dims().end());
  g.axes = WindowAxes(x, layer.GetOutputInfo(0).shape, kernel, d->strides, d->dilations, d->pads, false);
  return true;
}

}  // namespace

bool DescribeConvolutionNd(const ILayerView& layer, ConvNdGeometry& g, std::string& reason) {
  return DescribeConvolutionWindows<ConvolutionNdDescriptor>(layer, g, reason);
}

bool DescribeConvolutionInteger(const ILayerView& layer, ConvNdGeometry& g, std::string& reason) {
  return DescribeConvolutionWindows<ConvolutionIntegerDescriptor>(layer, g, reason);
}

bool DescribeRecurrent(const ILayerView& layer, RecurrentGeometry& g, std::string& reason) {
  const auto* d = Checked<RecurrentDescriptor>(layer, reason);
  if (!d) return false;
  const TensorShape& x = layer.GetInputInfo(0).shape;
  const TensorShape& w = layer.GetInputInfo(1).shape;
  g = RecurrentGeometry{};
  g.steps = x[0];
  g.batch = x[1];
  g.input = x[2];
  g.hidden = layer.GetInputInfo(2).shape[2];
  g.directions = w[0];
  g.gates = d->cell == RecurrentCell::kRnn ? 1 : d->cell == RecurrentCell::kGru ? 3 : 4;
  g.functions = d->activations.size() / static_cast<std::size_t>(g.directions);
  const std::size_t n = layer.GetNumInputs();
  g.has_bias = n > 3;
  g.has_lengths = n > 4;
  g.has_initial_h = n > 5;
  g.has_initial_c = n > 6;
  g.has_peephole = n > 7;
  return true;
}

bool DescribePoolingNd(const ILayerView& layer, PoolingNdGeometry& g, std::string& reason) {
  const auto* d = Checked<PoolingNdDescriptor>(layer, reason);
  if (!d) return false;
  const TensorShape& x = layer.GetInputInfo(0).shape;
  g = PoolingNdGeometry{};
  g.batch = x[0];
  g.channels = x[1];
  const std::vector<std::int64_t> kernel(d->kernel.begin(), d->kernel.end());
  g.axes = WindowAxes(x, layer.GetOutputInfo(0).shape, kernel, d->strides, d->dilations, d->pads, d->global);
  return true;
}

std::vector<MatMulOperands> MatMulBatchOperands(const MatMulGeometry& g) {
  const auto a_strides = BroadcastStrides(g.a_batch, g.batch);
  const auto b_strides = BroadcastStrides(g.b_batch, g.batch);
  const std::vector<std::int64_t>& dims = g.batch.Dims();
  std::vector<MatMulOperands> operands(static_cast<std::size_t>(g.batch.NumElements()));
  for (std::size_t index = 0; index < operands.size(); ++index) {
    auto rest = static_cast<std::int64_t>(index);
    for (std::size_t d = dims.size(); d-- > 0;) {
      const std::int64_t i = rest % dims[d];
      rest /= dims[d];
      operands[index].a += i * a_strides[d];
      operands[index].b += i * b_strides[d];
    }
  }
  return operands;
}

namespace {

// MatMul's and MatMulInteger's geometry (numpy.matmul over inputs 0 and 1).
bool DescribeMatrixProduct(const ILayerView& layer, LayerType type, MatMulGeometry& g, std::string& reason) {
  if (!Checked(layer, type, reason)) return false;
  const TensorShape& a = layer.GetInputInfo(0).shape;
  const TensorShape& b = layer.GetInputInfo(1).shape;
  const bool a_vector = a.Rank() == 1;
  const bool b_vector = b.Rank() == 1;
  g.m = a_vector ? 1 : a[a.Rank() - 2];
  g.k = a[a.Rank() - 1];
  g.n = b_vector ? 1 : b[b.Rank() - 1];
  g.a_batch = a_vector ? TensorShape{} : Leading(a, 2);
  g.b_batch = b_vector ? TensorShape{} : Leading(b, 2);
  std::string unused;
  BroadcastShapes(g.a_batch, g.b_batch, g.batch, unused);  // the schema checked that they broadcast
  g.output = layer.GetOutputInfo(0).shape;
  return true;
}

}  // namespace

bool DescribeMatMul(const ILayerView& layer, MatMulGeometry& g, std::string& reason) {
  return DescribeMatrixProduct(layer, LayerType::kMatMul, g, reason);
}

bool DescribeMatMulInteger(const ILayerView& layer, MatMulGeometry& g, std::string& reason) {
  return DescribeMatrixProduct(layer, LayerType::kMatMulInteger, g, reason);
}

bool DescribeGemm(const ILayerView& layer, GemmGeometry& g, std::string& reason) {
  const auto* d = Checked<FullyConnectedDescriptor>(layer, reason);
  if (!d) return false;
  const TensorShape& a = layer.GetInputInfo(0).shape;
  g.m = d->transpose_a ? a[1] : a[0];
  g.k = d->transpose_a ? a[0] : a[1];
  g.n = layer.GetOutputInfo(0).shape[1];
  return true;
}

bool DescribeSlice(const ILayerView& layer, SliceGeometry& g, std::string& reason) {
  const auto* d = Checked<SliceDescriptor>(layer, reason);
  if (!d) return false;
  const TensorShape& shape = layer.GetInputInfo(0).shape;
  const std::size_t rank = shape.Rank();
  g.start.assign(rank, 0);
  g.step.assign(rank, 1);
  for (std::size_t i = 0; i < d->starts.size(); ++i) {
    std::size_t axis = 0;
    NormalizeAxis(d->axes.empty() ? static_cast<std::int64_t>(i) : d->axes[i], rank, axis);
    const SliceAxis window = SliceWindow(shape[axis], d->starts[i], d->ends[i], d->steps.empty() ? 1 : d->steps[i]);
    g.start[axis] = window.start;
    g.step[axis] = window.step;
  }
  g.output = layer.GetOutputInfo(0).shape;
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
  const auto* d = Checked<TransposeDescriptor>(layer, reason);
  if (!d) return false;
  const TensorShape& in = layer.GetInputInfo(0).shape;
  const std::size_t rank = in.Rank();
  g.permutation = d->permutation;
  if (g.permutation.empty()) {
    for (std::size_t i = 0; i < rank; ++i) g.permutation.push_back(static_cast<std::uint32_t>(rank - 1 - i));
  }
  const auto in_strides = DenseStrides(in);
  g.read_strides.assign(rank, 0);
  for (std::size_t i = 0; i < rank; ++i) g.read_strides[i] = in_strides[g.permutation[i]];
  return true;
}

bool CheckReshape(const ILayerView& layer, std::string& reason) {
  return Checked<ReshapeDescriptor>(layer, reason) != nullptr;
}

bool DescribeFlatten(const ILayerView& layer, FlattenGeometry& g, std::string& reason) {
  const auto* d = Checked<FlattenDescriptor>(layer, reason);
  if (!d) return false;
  const TensorShape& in = layer.GetInputInfo(0).shape;
  const auto rank = static_cast<std::int64_t>(in.Rank());
  g.axis = static_cast<std::size_t>(d->axis < 0 ? d->axis + rank : d->axis);
  g.outer = layer.GetOutputInfo(0).shape[0];
  g.inner = layer.GetOutputInfo(0).shape[1];
  return true;
}

bool DescribeSplit(const ILayerView& layer, SplitGeometry& g, std::string& reason) {
  const auto* d = Checked<SplitDescriptor>(layer, reason);
  if (!d) return false;
  const TensorShape& in = layer.GetInputInfo(0).shape;
  NormalizeAxis(d->axis, in.Rank(), g.axis);
  g.parts.clear();
  for (std::size_t i = 0; i < layer.GetNumOutputs(); ++i) g.parts.push_back(layer.GetOutputInfo(i).shape[g.axis]);
  const AxisExtents extents = ExtentsAroundAxis(in, g.axis);
  g.outer = extents.outer;
  g.inner = extents.inner;
  return true;
}

bool DescribeLayerNormalization(const ILayerView& layer, LayerNormGeometry& g, std::string& reason) {
  const auto* d = Checked<LayerNormalizationDescriptor>(layer, reason);
  if (!d) return false;
  const TensorShape& shape = layer.GetInputInfo(0).shape;
  NormalizeAxis(d->axis, shape.Rank(), g.axis);
  const AxisExtents extents = ExtentsAroundAxis(shape, g.axis);
  g.rows = extents.outer;
  g.size = extents.length * extents.inner;
  return true;
}

}  // namespace backplane::backend
