// Network building (runtime/include/backplane/network.hpp): unique names, constants, connections,
// pins, and shape inference for every op family. No backend is involved.
#include "test_runtime.hpp"

#include <backplane/descriptors.hpp>
#include <backplane/network.hpp>

#include <doctest/doctest.h>

#include <functional>

namespace backplane::unit {
namespace {

TensorInfo F32(std::initializer_list<std::int64_t> dims) { return {TensorShape(dims), DataType::kFloat32}; }

// Adds `descriptor` on `inputs` and returns its inferred output 0.
template <typename Descriptor>
TensorInfo Infer(Network& net, const Descriptor& descriptor, const std::vector<OutputSlot>& inputs) {
  return net.GetOutputInfo(net.Add(descriptor, inputs));
}

const TensorInfo kImage = F32({2, 6, 9, 10});

// The error GetOutputInfo gives for a `descriptor` layer on a fresh network: input "image"
// [2,6,9,10] and whatever `inputs` adds. (A fresh network each time: one invalid layer makes
// every later GetOutputInfo on the same network fail, since it resolves the whole graph.)
template <typename Descriptor>
Exception InferError(const Descriptor& descriptor,
                     const std::function<std::vector<OutputSlot>(Network&, OutputSlot)>& inputs) {
  Network net;
  const auto image = net.AddInput("image", kImage);
  const auto slots = inputs(net, image);
  const Exception error = ThrowsException([&] { Infer(net, descriptor, slots); });
  CHECK(error.code() == ErrorCode::kInvalidArgument);
  return error;
}

TEST_CASE("network: names of inputs, outputs and layers are unique") {
  Network net;
  const auto x = net.AddInput("x", F32({1, 4}));
  const auto relu = net.Add(ActivationDescriptor{}, {x}, "relu");
  const std::size_t layers = net.GetNumLayers();

  for (auto add : std::vector<std::function<void()>>{
           [&] { net.AddInput("x", F32({1, 4})); },
           [&] { net.AddInput("relu", F32({1, 4})); },
           [&] { net.Add(ActivationDescriptor{}, {x}, "x"); },
           [&] { net.AddConstant("relu", {4}, std::vector<float>(4, 1.0f)); },
           [&] { net.AddOutput("relu", relu); },
       }) {
    const Exception error = ThrowsException(add);
    CHECK(error.code() == ErrorCode::kInvalidArgument);
    CHECK_MESSAGE(ContainsAll(error.what(), {"already has a layer named"}), error.what());
  }
  net.AddOutput("y", relu);
  const Exception twice = ThrowsException([&] { net.AddOutput("y", relu); });
  CHECK(ContainsAll(twice.what(), {"already has a layer named 'y'"}));
  // Failed calls changed nothing; the one good AddOutput added one layer.
  CHECK(net.GetNumLayers() == layers + 1);
  CHECK(net.GetInputNames() == std::vector<std::string>{"x"});
  CHECK(net.GetOutputNames() == std::vector<std::string>{"y"});

  const Exception empty = ThrowsException([&] { net.AddInput("", F32({1})); });
  CHECK(ContainsAll(empty.what(), {"name must not be empty"}));
}

TEST_CASE("network: unnamed layers get generated names that FindLayer knows") {
  Network net;
  const auto x = net.AddInput("x", F32({2}));
  const LayerId relu = net.AddLayer(ActivationDescriptor{}, "", {x});
  CHECK(net.FindLayer("Activation_1") == relu);
  const Exception unknown = ThrowsException([&] { net.FindLayer("nope"); });
  CHECK(unknown.code() == ErrorCode::kNotFound);
  CHECK(ContainsAll(unknown.what(), {"'nope'"}));
}

TEST_CASE("network: inputs need positive dimensions, AddLayer refuses the special layer types") {
  Network net;
  const Exception dynamic = ThrowsException([&] { net.AddInput("x", F32({-1, 3})); });
  CHECK(dynamic.code() == ErrorCode::kInvalidArgument);
  CHECK(ContainsAll(dynamic.what(), {"input 'x'", "[-1,3]", "positive"}));

  const Exception special = ThrowsException(
      [&] { net.AddLayer(LayerType::kConstant, std::make_shared<ConstantDescriptor>(), "c", {}, 1); });
  CHECK(ContainsAll(special.what(), {"Constant", "AddConstant"}));
  const Exception no_descriptor =
      ThrowsException([&] { net.AddLayer(LayerType::kActivation, nullptr, "r", {}, 1); });
  CHECK(ContainsAll(no_descriptor.what(), {"Activation", "needs a descriptor"}));
  CHECK(net.GetNumLayers() == 0);
}

TEST_CASE("network: AddConstant checks the data size against the shape and type") {
  Network net;
  const Exception short_data = ThrowsException([&] {
    net.AddConstant("w", TensorInfo{{2, 2}, DataType::kFloat32},
                    std::make_shared<const std::vector<std::uint8_t>>(12));
  });
  CHECK(short_data.code() == ErrorCode::kInvalidArgument);
  CHECK(ContainsAll(short_data.what(), {"constant 'w'", "f32", "[2,2]", "needs 16 bytes, got 12"}));

  const Exception null_data =
      ThrowsException([&] { net.AddConstant("w", TensorInfo{{2}, DataType::kInt64}, nullptr); });
  CHECK(ContainsAll(null_data.what(), {"constant 'w'", "needs 16 bytes, got 0"}));

  const Exception typed = ThrowsException([&] { net.AddConstant("w", {3}, std::vector<std::int32_t>{1, 2}); });
  CHECK(ContainsAll(typed.what(), {"i32", "needs 12 bytes, got 8"}));
  CHECK(net.GetNumLayers() == 0);

  const auto w = net.AddConstant("w", {2, 2}, std::vector<float>{1, 2, 3, 4});
  CHECK(net.GetOutputInfo(w) == F32({2, 2}));
  const auto i = net.AddConstant("i", {3}, std::vector<std::int64_t>{1, 2, 3});
  CHECK(net.GetOutputInfo(i) == TensorInfo{{3}, DataType::kInt64});
}

TEST_CASE("network: Connect refuses connected, missing and out-of-range slots") {
  Network net;
  const auto x = net.AddInput("x", F32({4}));
  const auto y = net.AddInput("y", F32({4}));
  const LayerId add = net.AddLayer(ElementwiseBinaryDescriptor{}, "add", {x});
  net.Connect(y, {add, 1});
  CHECK(net.GetOutputInfo({add, 0}) == F32({4}));

  const Exception connected = ThrowsException([&] { net.Connect(x, {add, 1}); });
  CHECK(connected.code() == ErrorCode::kInvalidArgument);
  CHECK(ContainsAll(connected.what(), {"input 1 of layer 'add' (ElementwiseBinary)", "already connected"}));

  const Exception no_output = ThrowsException([&] { net.Connect({add, 1}, {add, 2}); });
  CHECK(ContainsAll(no_output.what(), {"output 1 of layer 'add'", "which has 1"}));

  const Exception no_layer = ThrowsException([&] { net.Connect({99, 0}, {add, 2}); });
  CHECK(ContainsAll(no_layer.what(), {"layer 99", "has 3 layers"}));

  const Exception no_target = ThrowsException([&] { net.Connect(x, {42, 0}); });
  CHECK(ContainsAll(no_target.what(), {"targets layer 42", "has 3 layers"}));

  const Exception into_input = ThrowsException([&] { net.Connect(x, {y.layer, 0}); });
  CHECK(ContainsAll(into_input.what(), {"'y' (Input)", "takes no inputs"}));

  const Exception far_slot = ThrowsException([&] { net.Connect(x, {add, 64}); });
  CHECK(ContainsAll(far_slot.what(), {"input 64 of layer 'add'", "out of range"}));

  const Exception bad_output = ThrowsException([&] { net.AddOutput("out", {add, 3}); });
  CHECK(ContainsAll(bad_output.what(), {"output 'out'", "output 3 of layer 'add'"}));

  const Exception bad_add = ThrowsException([&] { net.Add(ActivationDescriptor{}, {{7, 0}}, "relu"); });
  CHECK(ContainsAll(bad_add.what(), {"input 0 of layer 'relu'", "layer 7"}));
  CHECK_THROWS(net.FindLayer("relu"));  // nothing was added
}

TEST_CASE("network: PinLayer needs a layer that exists") {
  Network net;
  const auto x = net.AddInput("x", F32({4}));
  net.Add(ActivationDescriptor{}, {x}, "relu");
  net.PinLayer("relu", "CpuRef");
  const Exception unknown = ThrowsException([&] { net.PinLayer("relu2", "CpuRef"); });
  CHECK(unknown.code() == ErrorCode::kNotFound);
  CHECK(ContainsAll(unknown.what(), {"no layer named 'relu2'"}));
}

TEST_CASE("network: GetOutputInfo infers shapes for every op family") {
  Network net;
  const auto image = net.AddInput("image", kImage);

  SUBCASE("convolution: strides, asymmetric pads, dilation, groups") {
    Convolution2dDescriptor conv;
    conv.strides = {2, 3};
    conv.pads = {1, 0, 2, 1};
    conv.dilations = {2, 1};
    conv.groups = 3;
    const auto w = net.AddConstant("w", {12, 2, 3, 2}, std::vector<float>(12 * 2 * 3 * 2));
    const auto b = net.AddConstant("b", {12}, std::vector<float>(12));
    // H: (9 + 1 + 2 - 2*(3-1) - 1) / 2 + 1 = 4; W: (10 + 0 + 1 - 1*(2-1) - 1) / 3 + 1 = 4
    CHECK(Infer(net, conv, {image, w, b}) == F32({2, 12, 4, 4}));
    const Exception channels = InferError(conv, [](Network& fresh, OutputSlot x) {
      return std::vector<OutputSlot>{x, fresh.AddConstant("bad_w", {12, 4, 3, 3}, std::vector<float>(12 * 4 * 9))};
    });
    CHECK(ContainsAll(channels.what(), {"(Convolution2d)", "weights [12,4,3,3] need C/groups = 2", "3 groups"}));
  }
  SUBCASE("fully connected (Gemm) with transposes and bias; MatMul with broadcast batches") {
    const auto a = net.AddInput("a", F32({3, 5}));
    const auto w = net.AddConstant("w", {7, 5}, std::vector<float>(35));
    CHECK(Infer(net, FullyConnectedDescriptor{}, {a, w, net.AddConstant("b", {7}, std::vector<float>(7))}) ==
          F32({3, 7}));
    FullyConnectedDescriptor gemm;
    gemm.transpose_a = true;
    gemm.transpose_b = false;
    CHECK(Infer(net, gemm, {a, net.AddConstant("b2", {3, 4}, std::vector<float>(12))}) == F32({5, 4}));
    const auto batched = net.AddInput("batched", F32({4, 1, 3, 5}));
    const auto other = net.AddInput("other", F32({6, 5, 2}));
    CHECK(Infer(net, MatMulDescriptor{}, {batched, other}) == F32({4, 6, 3, 2}));
    const auto vector = net.AddInput("vector", F32({5}));
    CHECK(Infer(net, MatMulDescriptor{}, {a, vector}) == F32({3}));

    const Exception k = InferError(gemm, [](Network& fresh, OutputSlot) {
      return std::vector<OutputSlot>{fresh.AddInput("a", F32({3, 5})),
                                     fresh.AddConstant("w", {7, 5}, std::vector<float>(35))};
    });
    CHECK(ContainsAll(k.what(), {"(FullyConnected)", "op(A) of [3,5] has K = 3 but op(B) of [7,5] has K = 7"}));
  }
  SUBCASE("pooling: window, ceil mode, global") {
    Pooling2dDescriptor pool;
    pool.kernel = {3, 3};
    pool.strides = {2, 2};
    CHECK(Infer(net, pool, {image}) == F32({2, 6, 4, 4}));
    pool.ceil_mode = true;
    CHECK(Infer(net, pool, {image}) == F32({2, 6, 4, 5}));
    Pooling2dDescriptor global;
    global.type = PoolingType::kAverage;
    global.global = true;
    CHECK(Infer(net, global, {image}) == F32({2, 6, 1, 1}));
  }
  SUBCASE("elementwise: activation and unary keep the shape, binary broadcasts") {
    ActivationDescriptor gelu;
    gelu.function = ActivationFunction::kGelu;
    CHECK(Infer(net, gelu, {image}) == F32({2, 6, 9, 10}));
    CHECK(Infer(net, ElementwiseUnaryDescriptor{}, {image}) == F32({2, 6, 9, 10}));
    const auto row = net.AddInput("row", F32({6, 1, 10}));
    CHECK(Infer(net, ElementwiseBinaryDescriptor{}, {image, row}) == F32({2, 6, 9, 10}));
    const Exception broadcast = InferError(ElementwiseBinaryDescriptor{}, [](Network& fresh, OutputSlot x) {
      return std::vector<OutputSlot>{x, fresh.AddInput("bad", F32({5, 1, 1}))};
    });
    CHECK(ContainsAll(broadcast.what(), {"(ElementwiseBinary)", "[2,6,9,10]", "[5,1,1]", "do not broadcast"}));
    const Exception types = InferError(ElementwiseBinaryDescriptor{}, [](Network& fresh, OutputSlot x) {
      return std::vector<OutputSlot>{x, fresh.AddInput("ints", TensorInfo{{6, 1, 10}, DataType::kInt32})};
    });
    CHECK(ContainsAll(types.what(), {"different types", "f32", "i32"}));
  }
  SUBCASE("normalization and softmax keep the shape and check their parameters") {
    SoftmaxDescriptor softmax;
    softmax.axis = 1;
    CHECK(Infer(net, softmax, {image}) == F32({2, 6, 9, 10}));

    std::vector<OutputSlot> bn{image};
    for (const char* name : {"scale", "bias", "mean", "var"}) {
      bn.push_back(net.AddConstant(name, {6}, std::vector<float>(6, 1.0f)));
    }
    CHECK(Infer(net, BatchNormalizationDescriptor{}, bn) == F32({2, 6, 9, 10}));
    LayerNormalizationDescriptor ln;
    ln.axis = -2;
    const auto ln_scale = net.AddConstant("ln_scale", {9, 10}, std::vector<float>(90));
    CHECK(Infer(net, ln, {image, ln_scale}) == F32({2, 6, 9, 10}));
    const Exception scale = InferError(ln, [](Network& fresh, OutputSlot x) {
      return std::vector<OutputSlot>{x, fresh.AddConstant("scale", {6}, std::vector<float>(6))};
    });
    CHECK(ContainsAll(scale.what(), {"(LayerNormalization)", "scale (input 1) has shape [6], expected the normalized shape [9,10]"}));
    softmax.axis = 4;
    const Exception axis = InferError(softmax, [](Network&, OutputSlot x) { return std::vector<OutputSlot>{x}; });
    CHECK(ContainsAll(axis.what(), {"(Softmax)", "axis 4 is out of range [-4, 3] for input [2,6,9,10] of rank 4"}));
  }
  SUBCASE("reduce with and without keep_dims") {
    ReduceDescriptor reduce;
    reduce.axes = {1, -1};
    CHECK(Infer(net, reduce, {image}) == F32({2, 1, 9, 1}));
    reduce.keep_dims = false;
    CHECK(Infer(net, reduce, {image}) == F32({2, 9}));
    reduce.axes = {};
    CHECK(Infer(net, reduce, {image}) == F32({}));
  }
  SUBCASE("data movement: reshape, flatten, transpose, concat, split, slice, gather, pad, cast") {
    ReshapeDescriptor reshape;
    reshape.shape = {0, -1, 10};
    CHECK(Infer(net, reshape, {image}) == F32({2, 54, 10}));

    FlattenDescriptor flatten;
    flatten.axis = 2;
    CHECK(Infer(net, flatten, {image}) == F32({12, 90}));

    TransposeDescriptor transpose;
    transpose.permutation = {0, 2, 3, 1};
    CHECK(Infer(net, transpose, {image}) == F32({2, 9, 10, 6}));
    CHECK(Infer(net, TransposeDescriptor{}, {image}) == F32({10, 9, 6, 2}));

    ConcatDescriptor concat;
    concat.axis = 1;
    const auto more = net.AddInput("more", F32({2, 3, 9, 10}));
    CHECK(Infer(net, concat, {image, more, image}) == F32({2, 15, 9, 10}));

    SplitDescriptor split;
    split.axis = 1;
    split.sizes = {1, 5};
    const LayerId parts = net.AddLayer(split, "split", {image}, 2);
    CHECK(net.GetOutputInfo({parts, 0}) == F32({2, 1, 9, 10}));
    CHECK(net.GetOutputInfo({parts, 1}) == F32({2, 5, 9, 10}));

    SliceDescriptor slice;
    slice.starts = {-1, 1};
    slice.ends = {-100, 8};
    slice.axes = {3, 2};
    slice.steps = {-3, 2};
    // axis 3: 9, 6, 3, 0 -> 4; axis 2: 1, 3, 5, 7 -> 4
    CHECK(Infer(net, slice, {image}) == F32({2, 6, 4, 4}));

    GatherDescriptor gather;
    gather.axis = 1;
    const auto indices = net.AddConstant("indices", {2, 2}, std::vector<std::int64_t>{0, 1, 2, 3});
    CHECK(Infer(net, gather, {image, indices}) == F32({2, 2, 2, 9, 10}));

    PadDescriptor pad;
    pad.pads = {0, 0, 1, 2, 0, 1, 3, 4};
    CHECK(Infer(net, pad, {image}) == F32({2, 7, 13, 16}));

    CastDescriptor cast;
    cast.to = DataType::kInt64;
    CHECK(Infer(net, cast, {image}) == TensorInfo{{2, 6, 9, 10}, DataType::kInt64});

    reshape.shape = {7, -1};
    const Exception reshape_error = InferError(reshape, [](Network&, OutputSlot x) { return std::vector<OutputSlot>{x}; });
    CHECK(ContainsAll(reshape_error.what(), {"(Reshape)", "cannot reshape [2,6,9,10] (1080 elements) to [7,-1]"}));
  }
}

TEST_CASE("network: GetOutputInfo names the layer and input of an unconnected slot") {
  Network net;
  const auto x = net.AddInput("x", F32({4}));
  const LayerId add = net.AddLayer(ElementwiseBinaryDescriptor{}, "add", {x});
  net.Connect(x, {add, 2});  // input 1 stays empty
  const Exception error = ThrowsException([&] { net.GetOutputInfo({add, 0}); });
  CHECK(error.code() == ErrorCode::kInvalidArgument);
  CHECK(ContainsAll(error.what(), {"input 1 of layer 'add' (ElementwiseBinary) is not connected"}));
}

}  // namespace
}  // namespace backplane::unit
