// Independent, obviously correct (and slow) implementations of the ops the execution tests
// use, in double precision, written from the op definitions in descriptors.hpp rather than
// from any backend: the expected values of the network-level tests.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace backplane::unit::naive {

// Dense, outermost dimension first.
struct Tensor {
  std::vector<std::int64_t> dims;
  std::vector<double> values;

  std::int64_t Dim(std::size_t axis) const { return dims.at(axis); }
  std::size_t Size() const;
};

Tensor FromFloats(std::vector<std::int64_t> dims, const std::vector<float>& values);

// x [N, C, H, W], w [M, C/groups, kH, kW], bias [M] or empty. pads: top, left, bottom, right.
Tensor Conv2d(const Tensor& x, const Tensor& w, const std::vector<double>& bias,
              std::array<int, 2> strides, std::array<int, 4> pads, std::array<int, 2> dilations = {1, 1},
              int groups = 1);
Tensor Relu(const Tensor& x);
Tensor Gelu(const Tensor& x);  // exact: 0.5 x (1 + erf(x / sqrt 2))
Tensor Add(const Tensor& a, const Tensor& b);  // equal shapes
// Max pooling without padding.
Tensor MaxPool2d(const Tensor& x, std::array<int, 2> kernel, std::array<int, 2> strides);
Tensor GlobalAveragePool(const Tensor& x);  // [N, C, 1, 1]
Tensor Flatten(const Tensor& x);            // axis 1: [N, rest]
// x [M, K], w [N, K] (transposed, as FullyConnected), bias [N] or empty -> [M, N].
Tensor FullyConnected(const Tensor& x, const Tensor& w, const std::vector<double>& bias);
Tensor Softmax(const Tensor& x);  // over the last axis
// Over the last axis, with scale and bias of its length.
Tensor LayerNorm(const Tensor& x, const std::vector<double>& scale, const std::vector<double>& bias, double epsilon);
// Inference batch normalization over axis 1.
Tensor BatchNorm(const Tensor& x, const std::vector<double>& scale, const std::vector<double>& bias,
                 const std::vector<double>& mean, const std::vector<double>& variance, double epsilon);

std::vector<double> AsDoubles(const std::vector<float>& values);

}  // namespace backplane::unit::naive
