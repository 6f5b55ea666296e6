// Recurrent on CpuOneDnn (oneDNN's RNN primitives) matches CpuRef's plain loop within 1e-4 for
// every cell, direction and optional input it takes (weights reordered from ONNX's gate order,
// lbr_gru's fourth bias gate, peepholes, run-time initial states, Y of two directions); what it
// does not take falls back to CpuRef with the reason.
#include "../onednn_test_support.hpp"

#include <doctest/doctest.h>

namespace backplane::onednn::testing {
namespace {

using A = RecurrentActivation;

struct Case {
  const char* name;
  RecurrentCell cell;
  RecurrentDirection direction;
  std::vector<A> functions;  // one direction's
  std::int64_t steps, batch, input, hidden;
  std::size_t inputs;  // 3 to 8: X, W, R, B, sequence_lens, initial_h, initial_c, P
  bool linear_before_reset = false;
  float clip = 0.0f;
  bool short_first = false;  // sequence_lens T - 1 for entry 0 (else T for every entry)
};

std::int64_t Gates(RecurrentCell cell) { return cell == RecurrentCell::kRnn ? 1 : cell == RecurrentCell::kGru ? 3 : 4; }

// One Recurrent layer "op": X and the initial states are network inputs, W, R, B and P constants,
// sequence_lens (when the case has it) a constant of T (T - 1 for entry 0 with short_first).
Network RecurrentNetwork(const Case& c) {
  RecurrentDescriptor d;
  d.cell = c.cell;
  d.direction = c.direction;
  d.linear_before_reset = c.linear_before_reset;
  d.clip = c.clip;
  const std::int64_t nd = c.direction == RecurrentDirection::kBidirectional ? 2 : 1;
  for (std::int64_t k = 0; k < nd; ++k) {
    for (const A f : c.functions) {
      d.activations.push_back(static_cast<std::uint32_t>(f));
      d.activation_alpha.push_back(0.0f);
      d.activation_beta.push_back(0.0f);
    }
  }
  const std::int64_t gh = Gates(c.cell) * c.hidden;
  Network net;
  std::vector<OutputSlot> in{net.AddInput("x", {TensorShape{c.steps, c.batch, c.input}, DataType::kFloat32}),
                             Constant(net, "W", {nd, gh, c.input}, 11, 0.5f),
                             Constant(net, "R", {nd, gh, c.hidden}, 12, 0.5f),
                             Constant(net, "B", {nd, 2 * gh}, 13, 0.5f)};
  std::vector<std::int32_t> lengths(static_cast<std::size_t>(c.batch), static_cast<std::int32_t>(c.steps));
  if (c.short_first) lengths[0] -= 1;
  in.push_back(net.AddConstant("lengths", TensorShape{c.batch}, lengths));
  in.push_back(net.AddInput("h0", {TensorShape{nd, c.batch, c.hidden}, DataType::kFloat32}));
  in.push_back(net.AddInput("c0", {TensorShape{nd, c.batch, c.hidden}, DataType::kFloat32}));
  in.push_back(Constant(net, "P", {nd, 3 * c.hidden}, 14, 0.5f));
  in.resize(c.inputs);
  const std::uint32_t outputs = c.cell == RecurrentCell::kLstm ? 3 : 2;
  const LayerId op = net.AddLayer(d, "op", in, outputs);
  for (std::uint32_t o = 0; o < outputs; ++o) net.AddOutput("y" + std::to_string(o), {op, o});
  return net;
}

}  // namespace

TEST_CASE("ops: Recurrent LSTM, GRU and RNN in every direction match CpuRef") {
  auto runtime = MakeRuntime();
  using C = RecurrentCell;
  using D = RecurrentDirection;
  const std::vector<A> lstm{A::kSigmoid, A::kTanh, A::kTanh}, gru{A::kSigmoid, A::kTanh};
  const Case cases[] = {
      {"LSTM forward, no bias", C::kLstm, D::kForward, lstm, 5, 2, 3, 4, 3},
      {"LSTM forward, initial states", C::kLstm, D::kForward, lstm, 5, 2, 3, 4, 7},
      {"LSTM reverse with bias", C::kLstm, D::kReverse, lstm, 4, 3, 5, 6, 4},
      {"LSTM bidirectional, peepholes", C::kLstm, D::kBidirectional, lstm, 6, 2, 3, 5, 8},
      {"GRU forward", C::kGru, D::kForward, gru, 5, 2, 3, 4, 4},
      {"GRU bidirectional, initial_h", C::kGru, D::kBidirectional, gru, 5, 3, 4, 3, 6},
      {"GRU reverse, linear_before_reset", C::kGru, D::kReverse, gru, 5, 2, 3, 4, 4, true},
      {"GRU bidirectional, linear_before_reset, initial_h", C::kGru, D::kBidirectional, gru, 4, 2, 3, 5, 6, true},
      {"RNN tanh forward", C::kRnn, D::kForward, {A::kTanh}, 5, 2, 3, 4, 4},
      {"RNN relu bidirectional, initial_h", C::kRnn, D::kBidirectional, {A::kRelu}, 4, 2, 3, 4, 6},
      {"RNN sigmoid reverse", C::kRnn, D::kReverse, {A::kSigmoid}, 3, 1, 2, 3, 3},
      {"GRU, sequence_lens a constant of T", C::kGru, D::kForward, gru, 3, 2, 2, 3, 5},
  };
  for (const Case& c : cases) {
    const std::string name = c.name;
    CAPTURE(name);
    const Network net = RecurrentNetwork(c);
    const Outcome outcome = CheckAgainstReference(*runtime, net, InputsFor(*runtime, net));
    std::string reason;
    const std::string backend = BackendOf(outcome, "op", &reason);
    CAPTURE(reason);
    CHECK(backend == "CpuOneDnn");
  }
}

TEST_CASE("ops: Recurrent forms oneDNN has no primitive for fall back to CpuRef with the reason") {
  auto runtime = MakeRuntime();
  using C = RecurrentCell;
  using D = RecurrentDirection;
  const std::vector<A> lstm{A::kSigmoid, A::kTanh, A::kTanh};
  struct Refusal {
    Case c;
    const char* reason;
  };
  const Refusal refusals[] = {
      {{"sequence_lens", C::kLstm, D::kForward, lstm, 4, 2, 3, 4, 5, false, 0.0f, true},
       "sequence_lens other than a constant of T is not supported"},
      {{"clip", C::kLstm, D::kForward, lstm, 4, 2, 3, 4, 4, false, 0.5f}, "clip and input_forget are not supported"},
      {{"LSTM with another function", C::kLstm, D::kForward, {A::kSigmoid, A::kRelu, A::kTanh}, 4, 2, 3, 4, 3},
       "default activations only"},
      {{"RNN softsign", C::kRnn, D::kForward, {A::kSoftsign}, 4, 2, 3, 4, 3}, "default activations only"},
  };
  for (const Refusal& refusal : refusals) {
    const std::string name = refusal.c.name;
    CAPTURE(name);
    const Network net = RecurrentNetwork(refusal.c);
    const Outcome outcome = CheckAgainstReference(*runtime, net, InputsFor(*runtime, net));
    std::string reason;
    CHECK(BackendOf(outcome, "op", &reason) == "CpuRef");
    CHECK(reason.find(refusal.reason) != std::string::npos);
  }
}

}  // namespace backplane::onednn::testing
