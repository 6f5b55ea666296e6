// Recurrent (ONNX RNN, GRU and LSTM) on CpuRef against a step worked out by hand and numpy's
// reading of ONNX's equations (the generator is convert_recurrent_test.cpp's run(), with pat()
// weights: pat(shape, seed) = 0.5 sin(0.37 k + seed) rounded to f32), in f64 so the comparison
// is tight: GRU with sequence_lens, both linear_before_reset forms; RNN bidirectional with
// activations that read alpha and beta, and clip.
#include "op_test_harness.hpp"

#include <doctest/doctest.h>

#include <cmath>
#include <vector>

namespace {

using backplane::DataType;
using backplane::RecurrentActivation;
using backplane::RecurrentCell;
using backplane::RecurrentDescriptor;
using backplane::RecurrentDirection;
using backplane::TensorInfo;
using backplane::TensorShape;
using backplane::reference::testing::HostTensor;
using backplane::reference::testing::RunOp;

std::vector<double> Pattern(std::int64_t n, double seed, double scale = 1.0) {
  std::vector<double> values;
  for (std::int64_t k = 0; k < n; ++k) values.push_back(static_cast<float>(0.5 * std::sin(0.37 * k + seed)) * scale);
  return values;
}

HostTensor F64(const TensorShape& shape, double seed, double scale = 1.0) {
  return HostTensor::From(shape, Pattern(shape.NumElements(), seed, scale), DataType::kFloat64, true);
}

void CheckNear(const HostTensor& actual, const std::vector<double>& expected) {
  const auto values = actual.As<double>();
  REQUIRE(values.size() == expected.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    INFO("element " << i);
    CHECK(values[i] == doctest::Approx(expected[i]).epsilon(1e-12));
  }
}

void Functions(RecurrentDescriptor& d, const std::vector<RecurrentActivation>& kinds, const std::vector<float>& alpha,
               const std::vector<float>& beta) {
  for (const auto kind : kinds) d.activations.push_back(static_cast<std::uint32_t>(kind));
  d.activation_alpha = alpha;
  d.activation_beta = beta;
}

const std::vector<double> kGruY0{0.16546624086800421, 0.18122988196229139, 0.34375446697225792, 0.28435920098695938, 0.18386464990447854, 0.11213821340166431, 0, 0};
const std::vector<double> kGruYh0{0.18386464990447854, 0.11213821340166431, 0.34375446697225792, 0.28435920098695938};
const std::vector<double> kGruY1{0.21271437693818562, 0.24650620062443235, 0.38007919825476411, 0.33713120974512478, 0.25384921641411573, 0.20879037976271969, 0, 0};
const std::vector<double> kGruYh1{0.25384921641411573, 0.20879037976271969, 0.38007919825476411, 0.33713120974512478};
const std::vector<double> kRnnY{-0.30483217991390649, -0.36737799360556367, 0.2961535624448115, 0.35201694211503654, 0.064063546162309665, -0.36737799360556367, 0, 0, 0.3410581502016321, -0.32911494197864966, 0, 0};
const std::vector<double> kRnnYh{0.3410581502016321, -0.32911494197864966, 0.2961535624448115, 0.35201694211503654};

}  // namespace

TEST_CASE("Recurrent LSTM: one step worked out by hand (f32)") {
  RecurrentDescriptor d;
  d.cell = RecurrentCell::kLstm;
  Functions(d, {RecurrentActivation::kSigmoid, RecurrentActivation::kTanh, RecurrentActivation::kTanh}, {0, 0, 0},
            {0, 0, 0});
  const HostTensor x = HostTensor::From(TensorShape{1, 1, 1}, std::vector<float>{1.0f}, DataType::kFloat32);
  const HostTensor w = HostTensor::From(TensorShape{1, 4, 1}, std::vector<float>{1, 2, 3, 4}, DataType::kFloat32, true);
  const HostTensor r = HostTensor::From(TensorShape{1, 4, 1}, std::vector<float>{0, 0, 0, 0}, DataType::kFloat32, true);
  const TensorInfo state{TensorShape{1, 1, 1}, DataType::kFloat32};
  const auto out = RunOp(d, {x, w, r}, {{TensorShape{1, 1, 1, 1}, DataType::kFloat32}, state, state});
  const auto sigmoid = [](double v) { return 1 / (1 + std::exp(-v)); };
  const double c = sigmoid(1) * std::tanh(4);  // gates i, o, f, c; f * c0 is 0
  const double h = sigmoid(2) * std::tanh(c);
  CHECK(out[0].As<float>()[0] == doctest::Approx(h).epsilon(1e-6));
  CHECK(out[1].As<float>()[0] == doctest::Approx(h).epsilon(1e-6));
  CHECK(out[2].As<float>()[0] == doctest::Approx(c).epsilon(1e-6));
}

TEST_CASE("Recurrent GRU with B, sequence_lens and initial_h, linear_before_reset 0 and 1 (f64)") {
  RecurrentDescriptor d;
  d.cell = RecurrentCell::kGru;
  Functions(d, {RecurrentActivation::kSigmoid, RecurrentActivation::kTanh}, {0, 0}, {0, 0});
  const HostTensor lengths = HostTensor::From(TensorShape{2}, std::vector<std::int32_t>{2, 1}, DataType::kInt32);
  const std::vector<HostTensor> inputs{F64({2, 2, 1}, 0.1), F64({1, 6, 1}, 0.2), F64({1, 6, 2}, 0.3),
                                       F64({1, 12}, 0.4), lengths, F64({1, 2, 2}, 0.5)};
  const std::vector<TensorInfo> outputs{{TensorShape{2, 1, 2, 2}, DataType::kFloat64},
                                        {TensorShape{1, 2, 2}, DataType::kFloat64}};
  SUBCASE("0: the reset gate scales H before Rh") {
    const auto out = RunOp(d, inputs, outputs);
    CheckNear(out[0], kGruY0);  // entry 1 stops after step 0: Y is 0 there, Y_h its step-0 state
    CheckNear(out[1], kGruYh0);
  }
  SUBCASE("1: the reset gate scales H Rh^T + Rbh") {
    d.linear_before_reset = true;
    const auto out = RunOp(d, inputs, outputs);
    CheckNear(out[0], kGruY1);
    CheckNear(out[1], kGruYh1);
  }
  SUBCASE("a run-time length outside [0, T] is an error naming it") {
    std::vector<HostTensor> bad = inputs;
    bad[4] = HostTensor::From(TensorShape{2}, std::vector<std::int32_t>{2, 3}, DataType::kInt32);
    CHECK_THROWS_WITH(RunOp(d, bad, outputs), doctest::Contains("sequence_lens[1] is 3, outside [0, 2]"));
  }
}

TEST_CASE("Recurrent RNN bidirectional: ScaledTanh forward, Affine reverse, clip (f64)") {
  RecurrentDescriptor d;
  d.cell = RecurrentCell::kRnn;
  d.direction = RecurrentDirection::kBidirectional;
  Functions(d, {RecurrentActivation::kScaledTanh, RecurrentActivation::kAffine}, {1.5f, 0.5f}, {0.5f, 0.25f});
  d.clip = 0.5f;  // exact in f32 and f64
  const auto out = RunOp(d, {F64({3, 1, 2}, 0.1, 4.0), F64({2, 2, 2}, 2.2), F64({2, 2, 2}, 1.9), F64({2, 4}, 5.0)},
                         {{TensorShape{3, 2, 1, 2}, DataType::kFloat64}, {TensorShape{2, 1, 2}, DataType::kFloat64}});
  CheckNear(out[0], kRnnY);
  CheckNear(out[1], kRnnYh);
}
