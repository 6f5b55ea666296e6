// ConvolutionTranspose against small cases worked out by hand (1-D, 2-D, 3-D; stride 2 with
// output_padding and pads, groups, dilation) and against a direct gather written here (in
// double) on random inputs: the kernel scatters, the test gathers.
#include "op_test_harness.hpp"
#include "op_test_values.hpp"

#include <doctest/doctest.h>

#include <array>
#include <string>
#include <vector>

namespace {

using backplane::ConvolutionTransposeDescriptor;
using backplane::DataType;
using backplane::TensorInfo;
using backplane::TensorShape;
using backplane::reference::testing::CheckClose;
using backplane::reference::testing::HostTensor;
using backplane::reference::testing::IsSupported;
using backplane::reference::testing::Random;
using backplane::reference::testing::RunOp;

// A descriptor of `rank` spatial axes with the given lists (pads: begins, then ends).
ConvolutionTransposeDescriptor Descriptor(std::vector<std::uint32_t> strides, std::vector<std::uint32_t> dilations,
                                          std::vector<std::uint32_t> output_padding, std::vector<std::uint32_t> pads,
                                          std::uint32_t groups = 1) {
  ConvolutionTransposeDescriptor d;
  d.strides = std::move(strides);
  d.dilations = std::move(dilations);
  d.output_padding = std::move(output_padding);
  d.pads = std::move(pads);
  d.groups = groups;
  return d;
}

std::vector<float> Run(const ConvolutionTransposeDescriptor& d, const std::vector<HostTensor>& inputs,
                       const TensorShape& output) {
  return RunOp(d, inputs, {{output, DataType::kFloat32}})[0].As<float>();
}

// One random case: x [N, C, D...] and weights [C, M/groups, k...] as given.
struct Case {
  std::vector<std::int64_t> x, w;
  ConvolutionTransposeDescriptor d;
  bool bias = true;
  bool constant_weights = true;
};

// y[n][m][o...] = b[m] + sum over c of m's group, k... with o = i * s + k * dil - pad_begin for
// an input position i on every axis, of x[n][c][i...] * w[c][m mod M/groups][k...]. Fewer than
// three spatial axes are taken as three, leading ones of extent 1.
std::vector<double> Direct(const Case& t, const std::vector<std::int64_t>& y_dims, const std::vector<float>& x,
                           const std::vector<float>& w, const std::vector<float>& b) {
  const std::size_t rank = t.x.size() - 2;
  std::array<std::int64_t, 3> in{1, 1, 1}, k{1, 1, 1}, out{1, 1, 1}, s{1, 1, 1}, dil{1, 1, 1}, pad{0, 0, 0};
  for (std::size_t a = 0; a < rank; ++a) {
    const std::size_t at = 3 - rank + a;
    in[at] = t.x[2 + a];
    k[at] = t.w[2 + a];
    out[at] = y_dims[2 + a];
    s[at] = t.d.strides[a];
    dil[at] = t.d.dilations[a];
    pad[at] = t.d.pads[a];
  }
  const std::int64_t channels = t.x[1], group_out = t.w[1], groups = t.d.groups;
  const std::int64_t group_in = channels / groups, out_channels = group_out * groups;
  // The input index along one axis that kernel tap `tap` carries to output `o`, or -1.
  const auto source = [&](std::size_t axis, std::int64_t o, std::int64_t tap) -> std::int64_t {
    const std::int64_t scaled = o + pad[axis] - tap * dil[axis];
    if (scaled < 0 || scaled % s[axis] != 0 || scaled / s[axis] >= in[axis]) return -1;
    return scaled / s[axis];
  };
  std::vector<double> y;
  for (std::int64_t n = 0; n < t.x[0]; ++n) {
    for (std::int64_t m = 0; m < out_channels; ++m) {
      for (std::int64_t o0 = 0; o0 < out[0]; ++o0) {
        for (std::int64_t o1 = 0; o1 < out[1]; ++o1) {
          for (std::int64_t o2 = 0; o2 < out[2]; ++o2) {
            double sum = t.bias ? b[m] : 0.0;
            for (std::int64_t ci = 0; ci < group_in; ++ci) {
              const std::int64_t c = (m / group_out) * group_in + ci;
              for (std::int64_t k0 = 0; k0 < k[0]; ++k0) {
                for (std::int64_t k1 = 0; k1 < k[1]; ++k1) {
                  for (std::int64_t k2 = 0; k2 < k[2]; ++k2) {
                    const std::int64_t i0 = source(0, o0, k0), i1 = source(1, o1, k1), i2 = source(2, o2, k2);
                    if (i0 < 0 || i1 < 0 || i2 < 0) continue;
                    sum += double{x[(((n * channels + c) * in[0] + i0) * in[1] + i1) * in[2] + i2]} *
                           w[(((c * group_out + m % group_out) * k[0] + k0) * k[1] + k1) * k[2] + k2];
                  }
                }
              }
            }
            y.push_back(sum);
          }
        }
      }
    }
  }
  return y;
}

void CheckCase(const Case& t, unsigned seed = 1) {
  const TensorShape x_shape(t.x), w_shape(t.w);
  const std::int64_t out_channels = t.w[1] * t.d.groups;
  std::vector<std::int64_t> y_dims{t.x[0], out_channels};
  const std::size_t rank = t.x.size() - 2;
  for (std::size_t a = 0; a < rank; ++a) {
    y_dims.push_back(std::int64_t{t.d.strides[a]} * (t.x[2 + a] - 1) + t.d.output_padding[a] +
                     (t.w[2 + a] - 1) * std::int64_t{t.d.dilations[a]} + 1 - t.d.pads[a] - t.d.pads[rank + a]);
  }
  const auto x = Random(x_shape.NumElements(), seed);
  const auto w = Random(w_shape.NumElements(), seed + 1);
  const auto b = Random(out_channels, seed + 2);
  std::vector<HostTensor> inputs{HostTensor::F32(x_shape, x), HostTensor::F32(w_shape, w, t.constant_weights)};
  if (t.bias) inputs.push_back(HostTensor::F32({out_channels}, b, t.constant_weights));
  CheckClose(Run(t.d, inputs, TensorShape(y_dims)), Direct(t, y_dims, x, w, b));
}

}  // namespace

TEST_CASE("conv transpose: 3x3 ones over 0..8 into two channels, by hand (ONNX's ConvTranspose example)") {
  const auto x = HostTensor::F32({1, 1, 3, 3}, {0, 1, 2, 3, 4, 5, 6, 7, 8});
  const auto w = HostTensor::F32({1, 2, 3, 3}, std::vector<float>(18, 1.0f), true);
  const std::vector<float> plane{0, 1, 3, 3, 2, 3, 8, 15, 12, 7, 9, 21, 36, 27, 15, 9, 20, 33, 24, 13, 6, 13, 21, 15, 8};
  std::vector<float> expected = plane;
  expected.insert(expected.end(), plane.begin(), plane.end());
  CHECK(Run(Descriptor({1, 1}, {1, 1}, {0, 0}, {0, 0, 0, 0}), {x, w}, {1, 2, 5, 5}) == expected);
}

TEST_CASE("conv transpose: 1-D, stride 2 with output_padding 1 and a bias, by hand") {
  // Each input writes [x, 10x] at 2i; the output padding adds position 6, which gets the bias only.
  const auto x = HostTensor::F32({1, 1, 3}, {1, 2, 3});
  const auto w = HostTensor::F32({1, 1, 2}, {1, 10}, true);
  const auto b = HostTensor::F32({1}, {0.5f}, true);
  CHECK(Run(Descriptor({2}, {1}, {1}, {0, 0}), {x, w, b}, {1, 1, 7}) ==
        std::vector<float>{1.5f, 10.5f, 2.5f, 20.5f, 3.5f, 30.5f, 0.5f});
}

TEST_CASE("conv transpose: 2-D, stride 2, output_padding and pads, by hand") {
  // Unpadded, each input fills its own 2x2 block of a 4x4 output, and output_padding adds a
  // fifth row of zeros; pads then drop the first row (begin on H) and the last column (end on W).
  const auto x = HostTensor::F32({1, 1, 2, 2}, {1, 2, 3, 4});
  const auto w = HostTensor::F32({1, 1, 2, 2}, {1, 1, 1, 1}, true);
  CHECK(Run(Descriptor({2, 2}, {1, 1}, {1, 0}, {1, 0, 0, 1}), {x, w}, {1, 1, 4, 3}) ==
        std::vector<float>{1, 1, 2, 3, 3, 4, 3, 3, 4, 0, 0, 0});
}

TEST_CASE("conv transpose: groups, one and two output channels per group, by hand") {
  const auto x = HostTensor::F32({1, 2, 2}, {1, 2, 3, 4});  // channel 0: 1 2, channel 1: 3 4
  // Group 0 reads channel 0 through [1, -1], group 1 channel 1 through [2, 0.5].
  const auto w = HostTensor::F32({2, 1, 2}, {1, -1, 2, 0.5f}, true);
  CHECK(Run(Descriptor({1}, {1}, {0}, {0, 0}, 2), {x, w}, {1, 2, 3}) ==
        std::vector<float>{1, 1, -2, 6, 9.5f, 2});
  // Two output channels per group, 1-tap kernels: y0, y1 from channel 0 (x2, x3), y2, y3 from
  // channel 1 (x-1, x10).
  const auto w2 = HostTensor::F32({2, 2, 1}, {2, 3, -1, 10}, true);
  CHECK(Run(Descriptor({1}, {1}, {0}, {0, 0}, 2), {x, w2}, {1, 4, 2}) ==
        std::vector<float>{2, 4, 3, 6, -3, -4, 30, 40});
}

TEST_CASE("conv transpose: 1-D dilation 2, by hand") {
  // Taps 2 apart: input 0 writes 1 and 10 at 0 and 2, input 1 writes 2 and 20 at 1 and 3.
  const auto x = HostTensor::F32({1, 1, 2}, {1, 2});
  const auto w = HostTensor::F32({1, 1, 2}, {1, 10}, true);
  CHECK(Run(Descriptor({1}, {2}, {0}, {0, 0}), {x, w}, {1, 1, 4}) == std::vector<float>{1, 2, 10, 20});
}

TEST_CASE("conv transpose: 3-D, by hand") {
  // Input [1, 2] along D; the 2x2x2 kernel 1..8: plane 0 is 1x the first kernel plane, plane 1
  // the second plus 2x the first, plane 2 is 2x the second.
  const auto x = HostTensor::F32({1, 1, 2, 1, 1}, {1, 2});
  const auto w = HostTensor::F32({1, 1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}, true);
  CHECK(Run(Descriptor({1, 1, 1}, {1, 1, 1}, {0, 0, 0}, {0, 0, 0, 0, 0, 0}), {x, w}, {1, 1, 3, 2, 2}) ==
        std::vector<float>{1, 2, 3, 4, 7, 10, 13, 16, 10, 12, 14, 16});
}

TEST_CASE("conv transpose: random cases against a direct gather") {
  CheckCase({{2, 3, 5}, {3, 2, 3}, Descriptor({2}, {1}, {1}, {1, 0})});
  CheckCase({{1, 4, 4, 5}, {4, 3, 3, 3}, Descriptor({3, 2}, {1, 2}, {1, 0}, {1, 0, 2, 1}, 2)}, 3);
  CheckCase({{2, 6, 3, 4}, {6, 1, 2, 3}, Descriptor({2, 2}, {2, 1}, {1, 1}, {0, 1, 1, 0}, 6), false}, 5);
  CheckCase({{1, 2, 3, 2, 3}, {2, 2, 2, 3, 2}, Descriptor({2, 1, 2}, {1, 2, 1}, {1, 0, 0}, {1, 0, 0, 0, 1, 1})}, 7);
  Case run_time{{1, 4, 3, 3}, {4, 2, 3, 3}, Descriptor({2, 2}, {1, 1}, {1, 1}, {1, 1, 1, 1}, 2)};
  run_time.constant_weights = false;  // weights and bias as run-time inputs
  CheckCase(run_time, 9);
}

TEST_CASE("conv transpose: unsupported layers say why") {
  const auto d = Descriptor({1, 1}, {1, 1}, {0, 0}, {0, 0, 0, 0});
  const auto w = HostTensor::F32({1, 1, 2, 2}, {1, 1, 1, 1}, true);
  std::string reason;
  const auto half = HostTensor::From({1, 1, 2, 2}, std::vector<std::uint16_t>(4), DataType::kFloat16);
  CHECK_FALSE(IsSupported(d, {half, w}, {{{1, 1, 3, 3}, DataType::kFloat16}}, reason));
  CHECK(reason.find("f32") != std::string::npos);
  const auto x = HostTensor::F32({1, 1, 2, 2}, {1, 2, 3, 4});
  CHECK_FALSE(IsSupported(d, {x, w}, {{{1, 1, 4, 4}, DataType::kFloat32}}, reason));
  CHECK(reason.find("the op gives f32 [1,1,3,3]") != std::string::npos);
  CHECK(IsSupported(d, {x, w}, {{{1, 1, 3, 3}, DataType::kFloat32}}, reason));
}
