#include <backplane/backend/op_geometry.hpp>
#include <backplane/backend/op_schema.hpp>

#include <doctest/doctest.h>

#include <utility>

namespace {
using backplane::DataType;
using backplane::LayerDescriptor;
using backplane::TensorInfo;
using backplane::TensorShape;
using namespace backplane;
using namespace backplane::backend;

// A layer of the descriptor's type with f32 inputs and outputs of the given shapes.
struct Layer : LayerValues {
  Layer(LayerType type, const LayerDescriptor* descriptor, const std::vector<TensorShape>& inputs,
        const std::vector<TensorShape>& outputs)
      : LayerValues(type, "l", descriptor, F32(inputs), F32(outputs)) {}
  template <typename Descriptor>
  Layer(const Descriptor& descriptor, const std::vector<TensorShape>& inputs, const std::vector<TensorShape>& outputs)
      : Layer(Descriptor::kType, &descriptor, inputs, outputs) {}

  static std::vector<TensorInfo> F32(const std::vector<TensorShape>& shapes) {
    std::vector<TensorInfo> infos;
    for (const auto& shape : shapes) infos.push_back({shape, DataType::kFloat32});
    return infos;
  }
};

using Dims = std::vector<std::int64_t>;
}  // namespace

TEST_CASE("op geometry: window output extents") {
  std::int64_t out = 0;
  REQUIRE(WindowOutputExtent(7, 1, 1, 3, 2, 1, false, out));  // (7 + 2 - 3) / 2 + 1
  CHECK(out == 4);
  REQUIRE(WindowOutputExtent(7, 0, 0, 3, 1, 2, false, out));  // dilated span 5
  CHECK(out == 3);
  CHECK_FALSE(WindowOutputExtent(4, 0, 0, 3, 1, 2, false, out));
  REQUIRE(WindowOutputExtent(5, 0, 0, 2, 2, 1, false, out));
  CHECK(out == 2);
  REQUIRE(WindowOutputExtent(5, 0, 0, 2, 2, 1, true, out));  // ceil mode keeps the partial window
  CHECK(out == 3);
  // ceil mode drops a window that would start in the trailing padding
  REQUIRE(WindowOutputExtent(4, 0, 1, 2, 3, 1, true, out));
  CHECK(out == 2);
  REQUIRE(WindowOutputExtent(5, 0, 1, 2, 3, 1, true, out));
  CHECK(out == 2);
}

TEST_CASE("op geometry: Convolution2d with pads, strides, dilations and groups") {
  Convolution2dDescriptor d;
  d.strides = {2, 1};
  d.dilations = {1, 2};
  d.pads = {1, 0, 1, 2};
  d.groups = 2;
  // H: (9 + 2 - 3) / 2 + 1 = 5; W: (8 + 2 - 5) / 1 + 1 = 6
  Layer layer(d, {TensorShape({2, 4, 9, 8}), TensorShape({6, 2, 3, 3}), TensorShape({6})},
              {TensorShape({2, 6, 5, 6})});
  ConvGeometry g;
  std::string reason;
  REQUIRE_MESSAGE(DescribeConvolution(layer, g, reason), reason);
  CHECK(g.batch == 2);
  CHECK(g.out_channels == 6);
  CHECK(g.out_height == 5);
  CHECK(g.out_width == 6);
  CHECK(g.pad_top == 1);
  CHECK(g.pad_left == 0);
  CHECK(g.GroupChannels() == 2);
  CHECK(g.GroupOutChannels() == 3);
  CHECK(g.GroupDepth() == 18);

  Layer wrong_output(d, {TensorShape({2, 4, 9, 8}), TensorShape({6, 2, 3, 3})}, {TensorShape({2, 6, 5, 5})});
  CHECK_FALSE(DescribeConvolution(wrong_output, g, reason));
  CHECK(reason == "output 0 is f32 [2,6,5,5], the op gives f32 [2,6,5,6]");
  Layer bad_groups(d, {TensorShape({2, 3, 9, 8}), TensorShape({6, 2, 3, 3})}, {TensorShape({2, 6, 5, 6})});
  CHECK_FALSE(DescribeConvolution(bad_groups, g, reason));
  CHECK(reason == "input channels 3 are not divisible by groups 2");
  Layer no_descriptor(LayerType::kConvolution2d, nullptr, {TensorShape({1, 1, 1, 1}), TensorShape({1, 1, 1, 1})},
                      {TensorShape({1, 1, 1, 1})});
  CHECK_FALSE(DescribeConvolution(no_descriptor, g, reason));
  CHECK(reason == "has no descriptor");
}

TEST_CASE("op geometry: ConvolutionTranspose per spatial axis") {
  ConvolutionTransposeDescriptor d;
  d.strides = {3, 2};
  d.dilations = {1, 2};
  d.output_padding = {1, 0};
  d.pads = {1, 0, 2, 1};
  d.groups = 2;
  // H: 3 * 3 + 1 + 2 + 1 - 1 - 2 = 10; W: 2 * 4 + 0 + 2 * 2 + 1 - 0 - 1 = 12; M = 3 * 2.
  Layer layer(d, {TensorShape({2, 4, 4, 5}), TensorShape({4, 3, 3, 3})}, {TensorShape({2, 6, 10, 12})});
  ConvTransposeGeometry g;
  std::string reason;
  REQUIRE_MESSAGE(DescribeConvolutionTranspose(layer, g, reason), reason);
  CHECK(g.batch == 2);
  CHECK(g.out_channels == 6);
  CHECK(g.GroupChannels() == 2);
  CHECK(g.GroupOutChannels() == 3);
  REQUIRE(g.axes.size() == 2);
  CHECK(g.axes[0].stride == 3);
  CHECK(g.axes[0].pad_begin == 1);
  CHECK(g.axes[0].out == 10);
  CHECK(g.axes[1].dilation == 2);
  CHECK(g.axes[1].out == 12);
  CHECK(g.InSpatial() == 20);
  CHECK(g.OutSpatial() == 120);
  CHECK(g.KernelSpatial() == 9);

  Layer wrong_output(d, {TensorShape({2, 4, 4, 5}), TensorShape({4, 3, 3, 3})}, {TensorShape({2, 6, 10, 11})});
  CHECK_FALSE(DescribeConvolutionTranspose(wrong_output, g, reason));
  CHECK(reason == "output 0 is f32 [2,6,10,11], the op gives f32 [2,6,10,12]");
}

TEST_CASE("op geometry: ConvolutionNd and PoolingNd per spatial axis") {
  ConvolutionNdDescriptor conv;
  conv.strides = {2, 1, 1};
  conv.dilations = {1, 2, 1};
  conv.pads = {1, 0, 0, 0, 1, 2};
  conv.groups = 2;
  // D: (4 + 1 - 3) / 2 + 1 = 2; H: 5 + 1 - 3 + 1 = 4; W: 3 + 2 - 2 + 1 = 4.
  Layer layer(conv, {TensorShape({1, 4, 4, 5, 3}), TensorShape({6, 2, 3, 2, 2})}, {TensorShape({1, 6, 2, 4, 4})});
  ConvNdGeometry g;
  std::string reason;
  REQUIRE_MESSAGE(DescribeConvolutionNd(layer, g, reason), reason);
  CHECK(g.out_channels == 6);
  CHECK(g.GroupChannels() == 2);
  CHECK(g.GroupOutChannels() == 3);
  REQUIRE(g.axes.size() == 3);
  CHECK(g.axes[0].kernel == 3);
  CHECK(g.axes[0].Start(1) == 1);
  CHECK(g.axes[1].dilation == 2);
  CHECK(g.axes[2].pad_end == 2);
  CHECK(g.axes[2].out == 4);
  CHECK(ProductOfAxes(g.axes, &PoolAxis::kernel) == 12);
  CHECK(ProductOfAxes(g.axes, &PoolAxis::out) == 32);

  PoolingNdDescriptor pool;
  pool.global = true;
  Layer global(pool, {TensorShape({2, 3, 4, 5, 6})}, {TensorShape({2, 3, 1, 1, 1})});
  PoolingNdGeometry p;
  REQUIRE_MESSAGE(DescribePoolingNd(global, p, reason), reason);
  CHECK(p.batch == 2);
  REQUIRE(p.axes.size() == 3);
  CHECK(p.axes[1].kernel == 5);
  CHECK(p.axes[2].out == 1);
  CHECK_FALSE(DescribePoolingNd(layer, p, reason));
  CHECK(reason == "expected a PoolingNd layer, not ConvolutionNd");
}

TEST_CASE("op geometry: Pooling2d, ceil mode and global") {
  Pooling2dDescriptor d;
  d.kernel = {2, 2};
  d.strides = {2, 2};
  d.ceil_mode = true;
  Layer layer(d, {TensorShape({1, 3, 5, 4})}, {TensorShape({1, 3, 3, 2})});
  PoolingGeometry g;
  std::string reason;
  REQUIRE_MESSAGE(DescribePooling(layer, g, reason), reason);
  CHECK(g.channels == 3);
  CHECK(g.rows.out == 3);
  CHECK(g.cols.out == 2);
  CHECK(g.rows.Start(2) == 4);
  CHECK_FALSE(g.rows.InInput(5));

  d.ceil_mode = false;
  Layer floor_mode(d, {TensorShape({1, 3, 5, 4})}, {TensorShape({1, 3, 3, 2})});
  CHECK_FALSE(DescribePooling(floor_mode, g, reason));
  CHECK(reason == "output 0 is f32 [1,3,3,2], the op gives f32 [1,3,2,2]");

  Pooling2dDescriptor global;
  global.global = true;
  Layer global_layer(global, {TensorShape({2, 3, 7, 7})}, {TensorShape({2, 3, 1, 1})});
  REQUIRE(DescribePooling(global_layer, g, reason));
  CHECK(g.rows.kernel == 7);
  CHECK(g.cols.out == 1);

  Pooling2dDescriptor too_big;
  too_big.kernel = {4, 1};
  Layer too_big_layer(too_big, {TensorShape({1, 1, 3, 3})}, {TensorShape({1, 1, 1, 3})});
  CHECK_FALSE(DescribePooling(too_big_layer, g, reason));
  CHECK(reason == "the window along H (kernel 4, dilation 1) does not fit the input's 3 padded by 0 and 0");
}

TEST_CASE("op geometry: MatMul rank-1 promotion and batch broadcasting") {
  MatMulDescriptor d;
  MatMulGeometry g;
  std::string reason;
  Layer batched(d, {TensorShape({2, 1, 3, 4}), TensorShape({5, 4, 6})}, {TensorShape({2, 5, 3, 6})});
  REQUIRE_MESSAGE(DescribeMatMul(batched, g, reason), reason);
  CHECK(g.m == 3);
  CHECK(g.k == 4);
  CHECK(g.n == 6);
  CHECK(g.a_batch == TensorShape({2, 1}));
  CHECK(g.b_batch == TensorShape({5}));
  CHECK(g.batch == TensorShape({2, 5}));

  Layer vector_a(d, {TensorShape({4}), TensorShape({2, 4, 6})}, {TensorShape({2, 6})});
  REQUIRE_MESSAGE(DescribeMatMul(vector_a, g, reason), reason);
  CHECK(g.m == 1);
  CHECK(g.a_batch == TensorShape({}));
  CHECK(g.output == TensorShape({2, 6}));
  Layer vector_b(d, {TensorShape({3, 4}), TensorShape({4})}, {TensorShape({3})});
  REQUIRE_MESSAGE(DescribeMatMul(vector_b, g, reason), reason);
  CHECK(g.n == 1);
  CHECK(g.output == TensorShape({3}));
  Layer dot(d, {TensorShape({4}), TensorShape({4})}, {TensorShape({})});
  REQUIRE_MESSAGE(DescribeMatMul(dot, g, reason), reason);

  Layer bad_k(d, {TensorShape({3, 4}), TensorShape({5, 6})}, {TensorShape({3, 6})});
  CHECK_FALSE(DescribeMatMul(bad_k, g, reason));
  CHECK(reason == "A [3,4] has K = 4 but B [5,6] has K = 5");
  Layer bad_batch(d, {TensorShape({2, 3, 4}), TensorShape({3, 4, 6})}, {TensorShape({3, 3, 6})});
  CHECK_FALSE(DescribeMatMul(bad_batch, g, reason));
  CHECK(reason.rfind("shapes [2] and [3] do not broadcast", 0) == 0);
}

TEST_CASE("op geometry: MatMul batch operands follow the broadcast") {
  backend::MatMulGeometry g;
  g.a_batch = TensorShape{2, 1};
  g.b_batch = TensorShape{1, 3};
  g.batch = TensorShape{2, 3};
  const auto operands = backend::MatMulBatchOperands(g);
  REQUIRE(operands.size() == 6);
  const std::int64_t a[] = {0, 0, 0, 1, 1, 1}, b[] = {0, 1, 2, 0, 1, 2};
  for (std::size_t i = 0; i < 6; ++i) {
    CHECK(operands[i].a == a[i]);
    CHECK(operands[i].b == b[i]);
  }
  g.a_batch = g.b_batch = g.batch = TensorShape{};
  CHECK(backend::MatMulBatchOperands(g).size() == 1);
}

TEST_CASE("op geometry: FullyConnected transposes and C") {
  FullyConnectedDescriptor d;  // transpose_b by default: weights [N, K]
  GemmGeometry g;
  std::string reason;
  Layer fc(d, {TensorShape({2, 5}), TensorShape({3, 5}), TensorShape({3})}, {TensorShape({2, 3})});
  REQUIRE_MESSAGE(DescribeGemm(fc, g, reason), reason);
  CHECK(g.m == 2);
  CHECK(g.k == 5);
  CHECK(g.n == 3);
  d.transpose_a = true;
  d.transpose_b = false;
  Layer gemm(d, {TensorShape({5, 2}), TensorShape({5, 3})}, {TensorShape({2, 3})});
  REQUIRE_MESSAGE(DescribeGemm(gemm, g, reason), reason);
  CHECK(g.m == 2);
  CHECK(g.k == 5);
  CHECK(g.n == 3);
  Layer bad_c(d, {TensorShape({5, 2}), TensorShape({5, 3}), TensorShape({2})}, {TensorShape({2, 3})});
  CHECK_FALSE(DescribeGemm(bad_c, g, reason));
  CHECK(reason == "C [2] does not broadcast to [2,3]");
  Layer bad_k(d, {TensorShape({4, 2}), TensorShape({5, 3})}, {TensorShape({2, 3})});
  CHECK_FALSE(DescribeGemm(bad_k, g, reason));
  CHECK(reason == "op(A) of [4,2] has K = 4 but op(B) of [5,3] has K = 5 (transpose_a 1, transpose_b 0)");
}

TEST_CASE("op geometry: Slice negative steps and clamping") {
  SliceDescriptor d;
  d.starts = {-1, 1};
  d.ends = {-100, 100};  // clamped: to -1 (before the first) and to 5
  d.axes = {0, -1};
  d.steps = {-2, 2};
  // axis 0 of 4: 3, 1 -> 2 kept; axis 1 of 5: 1, 3 -> 2 kept
  Layer layer(d, {TensorShape({4, 5})}, {TensorShape({2, 2})});
  SliceGeometry g;
  std::string reason;
  REQUIRE_MESSAGE(DescribeSlice(layer, g, reason), reason);
  CHECK(g.start == Dims{3, 1});
  CHECK(g.step == Dims{-2, 2});
  CHECK(g.output == TensorShape({2, 2}));
  CHECK(g.first == 16);
  CHECK(g.read_strides == Dims{-10, 2});

  SliceDescriptor empty;
  empty.starts = {3};
  empty.ends = {1};
  Layer empty_layer(empty, {TensorShape({4, 5})}, {TensorShape({0, 5})});
  REQUIRE_MESSAGE(DescribeSlice(empty_layer, g, reason), reason);
  CHECK(g.start == Dims{0, 0});

  SliceDescriptor twice;
  twice.starts = {0, 1};
  twice.ends = {4, 3};
  twice.axes = {1, -1};
  Layer twice_layer(twice, {TensorShape({4, 5})}, {TensorShape({4, 2})});
  CHECK_FALSE(DescribeSlice(twice_layer, g, reason));
  CHECK(reason == "axis 1 of [4,5] is sliced twice");
  SliceDescriptor zero;
  zero.starts = {0};
  zero.ends = {1};
  zero.steps = {0};
  Layer zero_layer(zero, {TensorShape({4})}, {TensorShape({1})});
  CHECK_FALSE(DescribeSlice(zero_layer, g, reason));
  CHECK(reason == "the step for axis 0 is 0");
}

TEST_CASE("op geometry: Transpose, Reshape, Flatten") {
  TransposeDescriptor t;
  TransposeGeometry tg;
  std::string reason;
  Layer reversed(t, {TensorShape({2, 3, 4})}, {TensorShape({4, 3, 2})});
  REQUIRE_MESSAGE(DescribeTranspose(reversed, tg, reason), reason);
  CHECK(tg.permutation == std::vector<std::uint32_t>{2, 1, 0});
  CHECK(tg.read_strides == Dims{1, 4, 12});
  t.permutation = {0, 0, 1};
  Layer repeats(t, {TensorShape({2, 3, 4})}, {TensorShape({2, 2, 3})});
  CHECK_FALSE(DescribeTranspose(repeats, tg, reason));
  CHECK(reason == "permutation [0,0,1] is not a permutation of 0..2 (axis 0 repeats)");

  ReshapeDescriptor r;
  r.shape = {0, -1};
  Layer reshape(r, {TensorShape({2, 3, 4})}, {TensorShape({2, 12})});
  CHECK_MESSAGE(CheckReshape(reshape, reason), reason);
  Layer bad_count(r, {TensorShape({2, 3, 4})}, {TensorShape({2, 11})});
  CHECK_FALSE(CheckReshape(bad_count, reason));
  CHECK(reason == "output 0 is f32 [2,11], the op gives f32 [2,12]");

  FlattenDescriptor f;
  f.axis = -1;
  FlattenGeometry fg;
  Layer flatten(f, {TensorShape({2, 3, 4})}, {TensorShape({6, 4})});
  REQUIRE_MESSAGE(DescribeFlatten(flatten, fg, reason), reason);
  CHECK(fg.axis == 2);
  CHECK(fg.outer == 6);
  CHECK(fg.inner == 4);
  f.axis = 4;
  Layer bad_axis(f, {TensorShape({2, 3, 4})}, {TensorShape({24, 1})});
  CHECK_FALSE(DescribeFlatten(bad_axis, fg, reason));
  CHECK(reason == "axis 4 is out of range [-3, 3] for input [2,3,4] of rank 3");
}

TEST_CASE("op geometry: Split and LayerNormalization") {
  SplitDescriptor s;
  s.axis = -1;
  s.sizes = {1, 3};
  SplitGeometry sg;
  std::string reason;
  Layer split(s, {TensorShape({2, 4, 3})}, {TensorShape({2, 4, 1}), TensorShape({2, 4, 3})});
  CHECK_FALSE(DescribeSplit(split, sg, reason));
  CHECK(reason == "sizes [1,3] sum to 4, axis 2 of input [2,4,3] has length 3");
  s.sizes = {1, 2};
  Layer split_ok(s, {TensorShape({2, 4, 3})}, {TensorShape({2, 4, 1}), TensorShape({2, 4, 2})});
  REQUIRE_MESSAGE(DescribeSplit(split_ok, sg, reason), reason);
  CHECK(sg.axis == 2);
  CHECK(sg.parts == Dims{1, 2});
  CHECK(sg.outer == 8);
  CHECK(sg.inner == 1);
  s.axis = 1;
  s.sizes = {};
  Layer equal(s, {TensorShape({2, 4, 3})}, {TensorShape({2, 2, 3}), TensorShape({2, 2, 3})});
  REQUIRE_MESSAGE(DescribeSplit(equal, sg, reason), reason);
  CHECK(sg.parts == Dims{2, 2});
  CHECK(sg.outer == 2);
  CHECK(sg.inner == 3);

  LayerNormalizationDescriptor n;
  n.axis = 1;
  LayerNormGeometry ng;
  Layer norm(n, {TensorShape({2, 3, 4}), TensorShape({1, 3, 4}), TensorShape({3, 4})}, {TensorShape({2, 3, 4})});
  REQUIRE_MESSAGE(DescribeLayerNormalization(norm, ng, reason), reason);
  CHECK(ng.axis == 1);
  CHECK(ng.rows == 2);
  CHECK(ng.size == 12);
  Layer bad_scale(n, {TensorShape({2, 3, 4}), TensorShape({4})}, {TensorShape({2, 3, 4})});
  CHECK_FALSE(DescribeLayerNormalization(bad_scale, ng, reason));
  CHECK(reason ==
        "scale (input 1) has shape [4], expected the normalized shape [3,4] of "
        "[2,3,4] from axis 1");
}

TEST_CASE("op geometry: arity, axes, and the wrong layer type") {
  std::string reason;
  MatMulDescriptor d;
  Layer one_input(d, {TensorShape({2, 2})}, {TensorShape({2, 2})});
  MatMulGeometry g;
  CHECK_FALSE(DescribeMatMul(one_input, g, reason));
  CHECK(reason == "takes 2 inputs, has 1");
  SliceDescriptor s;
  Layer not_pooling(s, {TensorShape({2})}, {TensorShape({2})});
  PoolingGeometry pg;
  CHECK_FALSE(DescribePooling(not_pooling, pg, reason));
  CHECK(reason == "expected a Pooling2d layer, not Slice");
  std::size_t axis = 0;
  CHECK(NormalizeAxis(-1, 3, axis));
  CHECK(axis == 2);
  CHECK_FALSE(NormalizeAxis(3, 3, axis));
}

TEST_CASE("op geometry: the extents around an axis") {
  const auto extents = [](const TensorShape& shape, std::size_t axis) {
    const AxisExtents e = ExtentsAroundAxis(shape, axis);
    return std::vector<std::int64_t>{e.outer, e.length, e.inner};
  };
  using Extents = std::vector<std::int64_t>;
  CHECK(extents(TensorShape({2, 3, 4, 5}), 1) == Extents{2, 3, 20});
  CHECK(extents(TensorShape({2, 3, 4, 5}), 0) == Extents{1, 2, 60});
  // The last axis (axis -1, normalized): nothing after it.
  std::size_t last = 0;
  REQUIRE(NormalizeAxis(-1, 4, last));
  CHECK(extents(TensorShape({2, 3, 4, 5}), last) == Extents{24, 5, 1});
  // Rank 1: the axis is the whole tensor.
  CHECK(extents(TensorShape({7}), 0) == Extents{1, 7, 1});
  // A zero extent anywhere makes the element count 0, and only its own part 0.
  CHECK(extents(TensorShape({2, 0, 4}), 1) == Extents{2, 0, 4});
  CHECK(extents(TensorShape({2, 0, 4}), 2) == Extents{0, 4, 1});
  CHECK(extents(TensorShape({2, 3, 0}), 0) == Extents{1, 2, 0});
  // Rank 0 has no axis; an axis at or past the rank is a trailing one of length 1.
  CHECK(extents(TensorShape(), 0) == Extents{1, 1, 1});
  CHECK(extents(TensorShape({2, 3}), 2) == Extents{6, 1, 1});
}
