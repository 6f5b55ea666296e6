// The networks the execution suites share, built with the public C++ API, each with a naive
// double-precision forward pass (naive_ops) for independent expected values.
//
//   SmallCnn:  x [2,3,8,8] -> conv1 3x3 pad 1 (+bias) -> relu1 -> pool1 max 2x2 -> conv2 3x3
//              pad 1 (+bias) -> add1 (+ pool1, residual) -> gap (global average) -> flatten
//              -> fc -> softmax -> y [2,5]
//   SmallMlp:  x [2,8] -> fc1 -> gelu -> fc2 -> residual (+ x) -> norm (layer norm) -> y [2,8]
//   AddRelu:   a, b [2,3,4] -> add -> relu -> y: runs on a test backend alone.
#pragma once

#include <backplane/network.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace backplane::unit {

// Weights are Pseudorandom(seed); the network is built once, in the constructor.
class SmallCnn {
 public:
  static constexpr std::int64_t kBatch = 2;
  explicit SmallCnn(std::uint32_t seed = 1);

  const Network& network() const { return network_; }
  const TensorInfo& input_info() const { return input_; }
  std::vector<float> MakeInput(std::uint32_t seed) const;
  // Softmax probabilities [2, 5], computed naively in double.
  std::vector<double> Forward(const std::vector<float>& x) const;

  // The layers that need a backend, in execution order, and the Add/ReLU among them.
  static const std::vector<std::string>& ComputeLayers();
  static const std::vector<std::string>& AddReluLayers();

 private:
  Network network_;
  TensorInfo input_;
  std::vector<float> w1_, b1_, w2_, b2_, fc_w_, fc_b_;
};

class SmallMlp {
 public:
  explicit SmallMlp(std::uint32_t seed = 2);

  const Network& network() const { return network_; }
  const TensorInfo& input_info() const { return input_; }
  std::vector<float> MakeInput(std::uint32_t seed) const;
  std::vector<double> Forward(const std::vector<float>& x) const;

  static const std::vector<std::string>& ComputeLayers();

 private:
  Network network_;
  TensorInfo input_;
  std::vector<float> w1_, b1_, w2_, b2_, scale_, bias_;
};

// y = relu(a + b) over [2,3,4]; inputs "a", "b", layers "add", "relu", output "y".
Network MakeAddRelu();
std::vector<double> AddReluForward(const std::vector<float>& a, const std::vector<float>& b);
inline const TensorInfo kAddReluInfo{{2, 3, 4}, DataType::kFloat32};

}  // namespace backplane::unit
