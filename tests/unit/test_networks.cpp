#include "test_networks.hpp"

#include "naive_ops.hpp"
#include "test_runtime.hpp"

#include <backplane/descriptors.hpp>

namespace backplane::unit {

namespace {

std::size_t Count(const TensorShape& shape) { return static_cast<std::size_t>(shape.NumElements()); }

}  // namespace

SmallCnn::SmallCnn(std::uint32_t seed)
    : input_{{kBatch, 3, 8, 8}, DataType::kFloat32},
      w1_(Pseudorandom(4 * 3 * 3 * 3, seed * 10 + 1, -0.5f, 0.5f)),
      b1_(Pseudorandom(4, seed * 10 + 2, -0.1f, 0.1f)),
      w2_(Pseudorandom(4 * 4 * 3 * 3, seed * 10 + 3, -0.5f, 0.5f)),
      b2_(Pseudorandom(4, seed * 10 + 4, -0.1f, 0.1f)),
      fc_w_(Pseudorandom(5 * 4, seed * 10 + 5)),
      fc_b_(Pseudorandom(5, seed * 10 + 6, -0.1f, 0.1f)) {
  Network& net = network_;
  const auto x = net.AddInput("x", input_);
  Convolution2dDescriptor conv;
  conv.pads = {1, 1, 1, 1};
  const auto conv1 = net.Add(conv, {x, net.AddConstant("conv1.weight", {4, 3, 3, 3}, w1_),
                                    net.AddConstant("conv1.bias", {4}, b1_)}, "conv1");
  const auto relu1 = net.Add(ActivationDescriptor{}, {conv1}, "relu1");
  Pooling2dDescriptor pool;
  pool.type = PoolingType::kMax;
  pool.kernel = {2, 2};
  pool.strides = {2, 2};
  const auto pool1 = net.Add(pool, {relu1}, "pool1");
  const auto conv2 = net.Add(conv, {pool1, net.AddConstant("conv2.weight", {4, 4, 3, 3}, w2_),
                                    net.AddConstant("conv2.bias", {4}, b2_)}, "conv2");
  const auto add1 = net.Add(ElementwiseBinaryDescriptor{}, {conv2, pool1}, "add1");
  Pooling2dDescriptor gap;
  gap.type = PoolingType::kAverage;
  gap.global = true;
  const auto pooled = net.Add(gap, {add1}, "gap");
  const auto flat = net.Add(FlattenDescriptor{}, {pooled}, "flatten");
  const auto fc = net.Add(FullyConnectedDescriptor{}, {flat, net.AddConstant("fc.weight", {5, 4}, fc_w_),
                                                       net.AddConstant("fc.bias", {5}, fc_b_)}, "fc");
  net.AddOutput("y", net.Add(SoftmaxDescriptor{}, {fc}, "softmax"));
}

std::vector<float> SmallCnn::MakeInput(std::uint32_t seed) const {
  return Pseudorandom(Count(input_.shape), 1000 + seed);
}

std::vector<double> SmallCnn::Forward(const std::vector<float>& x) const {
  using namespace naive;
  const Tensor input = FromFloats(input_.shape.Dims(), x);
  const Tensor c1 = Conv2d(input, FromFloats({4, 3, 3, 3}, w1_), AsDoubles(b1_), {1, 1}, {1, 1, 1, 1});
  const Tensor p1 = MaxPool2d(Relu(c1), {2, 2}, {2, 2});
  const Tensor c2 = Conv2d(p1, FromFloats({4, 4, 3, 3}, w2_), AsDoubles(b2_), {1, 1}, {1, 1, 1, 1});
  const Tensor pooled = Flatten(GlobalAveragePool(Add(c2, p1)));
  return Softmax(FullyConnected(pooled, FromFloats({5, 4}, fc_w_), AsDoubles(fc_b_))).values;
}

const std::vector<std::string>& SmallCnn::ComputeLayers() {
  static const std::vector<std::string> layers{"conv1", "relu1", "pool1", "conv2", "add1",
                                              "gap",   "flatten", "fc",  "softmax"};
  return layers;
}

const std::vector<std::string>& SmallCnn::AddReluLayers() {
  static const std::vector<std::string> layers{"relu1", "add1"};
  return layers;
}

SmallMlp::SmallMlp(std::uint32_t seed)
    : input_{{2, 8}, DataType::kFloat32},
      w1_(Pseudorandom(16 * 8, seed * 10 + 1, -0.5f, 0.5f)),
      b1_(Pseudorandom(16, seed * 10 + 2, -0.1f, 0.1f)),
      w2_(Pseudorandom(8 * 16, seed * 10 + 3, -0.5f, 0.5f)),
      b2_(Pseudorandom(8, seed * 10 + 4, -0.1f, 0.1f)),
      scale_(Pseudorandom(8, seed * 10 + 5, 0.5f, 1.5f)),
      bias_(Pseudorandom(8, seed * 10 + 6, -0.2f, 0.2f)) {
  Network& net = network_;
  const auto x = net.AddInput("x", input_);
  const auto fc1 = net.Add(FullyConnectedDescriptor{}, {x, net.AddConstant("fc1.weight", {16, 8}, w1_),
                                                        net.AddConstant("fc1.bias", {16}, b1_)}, "fc1");
  ActivationDescriptor gelu;
  gelu.function = ActivationFunction::kGelu;
  const auto act = net.Add(gelu, {fc1}, "gelu");
  const auto fc2 = net.Add(FullyConnectedDescriptor{}, {act, net.AddConstant("fc2.weight", {8, 16}, w2_),
                                                        net.AddConstant("fc2.bias", {8}, b2_)}, "fc2");
  const auto residual = net.Add(ElementwiseBinaryDescriptor{}, {fc2, x}, "residual");
  LayerNormalizationDescriptor norm;
  norm.axis = -1;
  norm.epsilon = 1e-5f;
  net.AddOutput("y", net.Add(norm, {residual, net.AddConstant("norm.scale", {8}, scale_),
                                    net.AddConstant("norm.bias", {8}, bias_)}, "norm"));
}

std::vector<float> SmallMlp::MakeInput(std::uint32_t seed) const {
  return Pseudorandom(Count(input_.shape), 2000 + seed);
}

std::vector<double> SmallMlp::Forward(const std::vector<float>& x) const {
  using namespace naive;
  const Tensor input = FromFloats({2, 8}, x);
  const Tensor hidden = Gelu(FullyConnected(input, FromFloats({16, 8}, w1_), AsDoubles(b1_)));
  const Tensor sum = Add(FullyConnected(hidden, FromFloats({8, 16}, w2_), AsDoubles(b2_)), input);
  return LayerNorm(sum, AsDoubles(scale_), AsDoubles(bias_), 1e-5).values;
}

const std::vector<std::string>& SmallMlp::ComputeLayers() {
  static const std::vector<std::string> layers{"fc1", "gelu", "fc2", "residual", "norm"};
  return layers;
}

Network MakeAddRelu() {
  Network net;
  const auto a = net.AddInput("a", kAddReluInfo);
  const auto b = net.AddInput("b", kAddReluInfo);
  const auto sum = net.Add(ElementwiseBinaryDescriptor{}, {a, b}, "add");
  net.AddOutput("y", net.Add(ActivationDescriptor{}, {sum}, "relu"));
  return net;
}

std::vector<double> AddReluForward(const std::vector<float>& a, const std::vector<float>& b) {
  std::vector<double> y(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const double sum = static_cast<double>(a[i] + b[i]);  // the sum of two floats, rounded as f32 does
    y[i] = sum > 0 ? sum : 0.0;
  }
  return y;
}

}  // namespace backplane::unit
