// RNN, GRU and LSTM as the Recurrent layer (convert_recurrent.cpp), run on CpuRef against values
// computed independently: a step worked out by hand, and numpy's reading of the ONNX equations
// (the generator is at the end of this file) with weights from Pattern().
#include "model_builder.hpp"

#include <backplane/exception.hpp>

#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

namespace {

using backplane::DataType;
using backplane::Exception;
using backplane::NpyArray;
using backplane::TensorShape;
using backplane::onnx::UnsupportedModelError;
using namespace backplane::onnx::testing;

using Dims = std::vector<std::int64_t>;

// 0.5 sin(0.37 k + seed) for k = 0 .. n-1, times `scale`: numpy's pat() below.
std::vector<float> Pattern(std::int64_t n, double seed, float scale = 1.0f) {
  std::vector<float> values;
  for (std::int64_t k = 0; k < n; ++k) values.push_back(static_cast<float>(0.5 * std::sin(0.37 * k + seed)) * scale);
  return values;
}

// A constant input of the node: an initializer of Pattern(seed) values.
struct Parameter {
  std::string name;
  Dims dims;
  double seed;
};

// One `op` node reading `inputs` ("" for absent ones): X [x] is a graph input, each parameter an
// initializer; every output a graph output.
::onnx::ModelProto RecurrentModel(const std::string& op, const Dims& x, const std::vector<std::string>& inputs,
                                  const std::vector<Parameter>& parameters, const std::vector<std::string>& outputs,
                                  ::onnx::NodeProto*& node) {
  auto model = OneNode(14, op, inputs, outputs, node);
  SetTensorType(*model.mutable_graph()->add_input(), "X", ::onnx::TensorProto::FLOAT, x);
  for (const auto& p : parameters) {
    AddFloatInitializer(*model.mutable_graph(), p.name, p.dims, Pattern(TensorShape(p.dims).NumElements(), p.seed));
  }
  return model;
}

void AddInt32Initializer(::onnx::GraphProto& graph, const std::string& name, const std::vector<std::int32_t>& values) {
  auto* tensor = graph.add_initializer();
  tensor->set_name(name);
  tensor->set_data_type(::onnx::TensorProto::INT32);
  tensor->add_dims(static_cast<std::int64_t>(values.size()));
  for (const auto v : values) tensor->add_int32_data(v);
}

void AddFloat(::onnx::NodeProto& node, const std::string& name, float value) {
  auto* attribute = node.add_attribute();
  attribute->set_name(name);
  attribute->set_type(::onnx::AttributeProto::FLOAT);
  attribute->set_f(value);
}

void AddStrings(::onnx::NodeProto& node, const std::string& name, const std::vector<std::string>& values) {
  auto* attribute = node.add_attribute();
  attribute->set_name(name);
  attribute->set_type(::onnx::AttributeProto::STRINGS);
  for (const auto& v : values) attribute->add_strings(v);
}

NpyArray PatternInput(const Dims& dims, double seed, float scale = 1.0f) {
  return Array<float>(DataType::kFloat32, TensorShape(dims), Pattern(TensorShape(dims).NumElements(), seed, scale));
}

void CheckNear(const NpyArray& actual, const Dims& dims, const std::vector<float>& expected) {
  CHECK(actual.shape == TensorShape(dims));
  const auto values = Floats(actual);
  REQUIRE(values.size() == expected.size());
  for (std::size_t i = 0; i < values.size(); ++i) {
    INFO("element " << i);
    CHECK(values[i] == doctest::Approx(expected[i]).epsilon(1e-5));
  }
}

// ---- numpy's values (see the generator at the end) ------------------------------------------

const std::vector<float> kLstmY{0.04670655f,  0.068703122f,  0.18728796f,   0.15243706f,   0.113052f,    0.19266927f,
                                -0.16792691f, -0.16978908f,  -0.12859794f,  -0.11881675f,  -0.21843624f, -0.23310991f,
                                0.1473055f,   0.17379957f,   0.17215547f,   0.15984024f,   0.12604611f,  0.14428605f,
                                -0.16450325f, -0.1696886f,   -0.12723707f,  -0.055688262f, -0.20452131f, -0.21041028f,
                                0.072140217f, 0.041506656f,  0.043324236f,  0.0f,          0.0f,         0.0f,
                                -0.11668951f, -0.085241295f, -0.035264105f, 0.0f,          0.0f,         0.0f};
const std::vector<float> kLstmYh{0.072140217f, 0.041506656f, 0.043324236f, 0.15984024f,  0.12604611f,  0.14428605f,
                                 -0.16792691f, -0.16978908f, -0.12859794f, -0.11881675f, -0.21843624f, -0.23310991f};
const std::vector<float> kLstmYc{0.13154441f,  0.071324363f, 0.066147387f, 0.26748329f,  0.21900189f,  0.24342687f,
                                 -0.31185678f, -0.3635104f,  -0.33825549f, -0.24854767f, -0.50631887f, -0.61659485f};
const std::vector<float> kGruY{
    0.20642303f,   0.31288531f,   0.28373733f,   0.26098359f,   0.34180847f,   0.25754219f,
    -0.041098293f, 0.023565544f,  0.10383058f,   -0.083191425f, -0.047950637f, -0.00081425422f,
    0.022378307f,  0.18435758f,   0.20429708f,   0.12799008f,   0.23631053f,   0.17606659f,
    -0.068991683f, -0.019455694f, 0.067415386f,  0.017284771f,  -0.055151425f, -0.15637477f,
    0.12173293f,   0.18452613f,   0.12056342f,   0.32319158f,   0.32426038f,   0.10030458f,
    0.15527411f,   0.039741196f,  -0.064031579f, 0.090392761f,  -0.078611106f, -0.37466455f};
const std::vector<float> kGruYh{0.12173293f, 0.18452613f,   0.12056342f,   0.32319158f,
                                0.32426038f, 0.10030458f,   -0.041098293f, 0.023565544f,
                                0.10383058f, -0.083191425f, -0.047950637f, -0.00081425422f};
const std::vector<float> kGruLinearY{
    0.23924665f,   0.30287108f,   0.23774837f,   0.30528095f,   0.32993591f,  0.21394004f,
    -0.019551706f, -0.058987588f, -0.071028076f, -0.068520613f, -0.12728043f, -0.17442845f,
    0.078975409f,  0.16996992f,   0.13462667f,   0.19208293f,   0.22121927f,  0.10901576f,
    -0.0536515f,   -0.085980803f, -0.072340325f, 0.0070755961f, -0.12005225f, -0.29435787f,
    0.18366787f,   0.17139527f,   0.046116423f,  0.38119173f,   0.31331098f,  0.034016181f,
    0.14894961f,   -0.010459188f, -0.14656138f,  0.056274187f,  -0.12046418f, -0.45779511f};
const std::vector<float> kGruLinearYh{0.18366787f,   0.17139527f,   0.046116423f,  0.38119173f,
                                      0.31331098f,   0.034016181f,  -0.019551706f, -0.058987588f,
                                      -0.071028076f, -0.068520613f, -0.12728043f,  -0.17442845f};
const std::vector<float> kRnnY{-0.1730589f,  -0.23526843f, 0.24234568f,  -0.26134425f, 0.35120413f,  -0.2616016f,
                               -0.06996543f, -0.24782979f, -0.30000001f, -0.20894766f, -0.30000001f, -0.23042186f};
const std::vector<float> kRnnYh{-0.1730589f, -0.23526843f, 0.24234568f, -0.26134425f};
const std::vector<float> kCoupledY{0.0041731396f, 0.0021893592f, 0.021086412f, 0.011181909f};
const std::vector<float> kCoupledYc{0.040295318f, 0.0211934f};

// The bidirectional LSTM of the numpy case A: T 3, B 2, I 2, H 3, every optional input.
::onnx::ModelProto BidirectionalLstm(::onnx::NodeProto*& node, bool run_time_lengths) {
  const std::int64_t h = 3;
  auto model = RecurrentModel("LSTM", {3, 2, 2}, {"X", "W", "R", "B", "lengths", "h0", "c0", "P"},
                              {{"W", {2, 4 * h, 2}, 0.2},
                               {"R", {2, 4 * h, h}, 0.3},
                               {"B", {2, 8 * h}, 0.4},
                               {"h0", {2, 2, h}, 0.5},
                               {"c0", {2, 2, h}, 0.6},
                               {"P", {2, 3 * h}, 0.7}},
                              {"Y", "Y_h", "Y_c"}, node);
  AddString(*node, "direction", "bidirectional");
  AddInt(*node, "hidden_size", h);
  if (run_time_lengths) {
    SetTensorType(*model.mutable_graph()->add_input(), "lengths", ::onnx::TensorProto::INT32, {2});
  } else {
    AddInt32Initializer(*model.mutable_graph(), "lengths", {3, 2});
  }
  return model;
}

}  // namespace

TEST_CASE("LSTM: one step worked out by hand") {
  ::onnx::NodeProto* node = nullptr;
  auto model = OneNode(14, "LSTM", {"X", "W", "R"}, {"", "Y_h", "Y_c"}, node);
  SetTensorType(*model.mutable_graph()->add_input(), "X", ::onnx::TensorProto::FLOAT, {1, 1, 1});
  AddFloatInitializer(*model.mutable_graph(), "W", {1, 4, 1}, {1, 2, 3, 4});  // gates i, o, f, c
  AddFloatInitializer(*model.mutable_graph(), "R", {1, 4, 1}, {0, 0, 0, 0});
  const auto outputs = Run(model, {{"X", Array<float>(DataType::kFloat32, {1, 1, 1}, {1.0f})}});
  const auto sigmoid = [](double x) { return 1 / (1 + std::exp(-x)); };
  const double c = sigmoid(1) * std::tanh(4);  // f * c0 is 0
  const double h = sigmoid(2) * std::tanh(c);
  CheckNear(outputs.at("Y_c"), {1, 1, 1}, {static_cast<float>(c)});
  CheckNear(outputs.at("Y_h"), {1, 1, 1}, {static_cast<float>(h)});
}

TEST_CASE("LSTM bidirectional with B, sequence_lens, initial_h, initial_c and peepholes matches numpy") {
  ::onnx::NodeProto* node = nullptr;
  const NpyArray x = PatternInput({3, 2, 2}, 0.1);
  SUBCASE("constant sequence_lens") {
    const auto outputs = Run(BidirectionalLstm(node, false), {{"X", x}});
    CheckNear(outputs.at("Y"), {3, 2, 2, 3}, kLstmY);
    CheckNear(outputs.at("Y_h"), {2, 2, 3}, kLstmYh);
    CheckNear(outputs.at("Y_c"), {2, 2, 3}, kLstmYc);
  }
  SUBCASE("sequence_lens computed at run time") {
    const NpyArray lengths = Array<std::int32_t>(DataType::kInt32, {2}, {3, 2});
    const auto outputs = Run(BidirectionalLstm(node, true), {{"X", x}, {"lengths", lengths}});
    CheckNear(outputs.at("Y"), {3, 2, 2, 3}, kLstmY);
    CheckNear(outputs.at("Y_h"), {2, 2, 3}, kLstmYh);
  }
  SUBCASE("the node is one Recurrent layer, not unrolled over its steps") {
    const auto imported = ImportProto(BidirectionalLstm(node, false));
    const auto layer = imported.network.FindLayer("LSTM");
    CHECK(imported.network.GetOutputInfo({layer, 2}).shape == TensorShape{2, 2, 3});  // Y_c
    // Input, the 7 constants (W, R, B, sequence_lens, initial_h, initial_c, P), the layer, 3 outputs.
    CHECK(imported.network.GetNumLayers() == 12);
    CHECK_THROWS_AS(imported.network.FindLayer("LSTM/forward/t0/recurrence"), Exception);
  }
}

TEST_CASE("LSTM layout 1 (batchwise) gives the transposes of layout 0") {
  ::onnx::NodeProto* node = nullptr;
  auto model = BidirectionalLstm(node, false);
  AddInt(*node, "layout", 1);
  model.mutable_graph()
      ->mutable_input(0)
      ->mutable_type()
      ->mutable_tensor_type()
      ->mutable_shape()
      ->mutable_dim(0)
      ->set_dim_value(2);
  model.mutable_graph()
      ->mutable_input(0)
      ->mutable_type()
      ->mutable_tensor_type()
      ->mutable_shape()
      ->mutable_dim(1)
      ->set_dim_value(3);
  for (auto& tensor : *model.mutable_graph()->mutable_initializer()) {
    if (tensor.name() == "h0" || tensor.name() == "c0") {  // [D, B, H] -> [B, D, H]: the same values, transposed
      const std::vector<float> v(tensor.float_data().begin(), tensor.float_data().end());
      tensor.clear_float_data();
      for (int b = 0; b < 2; ++b) {
        for (int d = 0; d < 2; ++d) {
          for (int k = 0; k < 3; ++k) tensor.add_float_data(v[static_cast<std::size_t>((d * 2 + b) * 3 + k)]);
        }
      }
      tensor.set_dims(0, 2);
    }
  }
  const std::vector<float> x = Pattern(12, 0.1);  // [T, B, I] -> [B, T, I]
  std::vector<float> batchwise;
  for (int b = 0; b < 2; ++b) {
    for (int t = 0; t < 3; ++t)
      batchwise.insert(batchwise.end(), x.begin() + (t * 2 + b) * 2, x.begin() + (t * 2 + b) * 2 + 2);
  }
  const auto outputs = Run(model, {{"X", Array<float>(DataType::kFloat32, {2, 3, 2}, batchwise)}});
  std::vector<float> y, y_h;  // Y [T, D, B, H] -> [B, T, D, H]; Y_h [D, B, H] -> [B, D, H]
  for (int b = 0; b < 2; ++b) {
    for (int t = 0; t < 3; ++t) {
      for (int d = 0; d < 2; ++d) {
        const auto at = kLstmY.begin() + ((t * 2 + d) * 2 + b) * 3;
        y.insert(y.end(), at, at + 3);
      }
    }
    for (int d = 0; d < 2; ++d)
      y_h.insert(y_h.end(), kLstmYh.begin() + (d * 2 + b) * 3, kLstmYh.begin() + (d * 2 + b) * 3 + 3);
  }
  CheckNear(outputs.at("Y"), {2, 3, 2, 3}, y);
  CheckNear(outputs.at("Y_h"), {2, 2, 3}, y_h);
}

TEST_CASE("LSTM input_forget couples the forget gate to 1 - i") {
  ::onnx::NodeProto* node = nullptr;
  auto model = RecurrentModel("LSTM", {2, 1, 1}, {"X", "W", "R"}, {{"W", {1, 8, 1}, 0.2}, {"R", {1, 8, 2}, 0.3}},
                              {"Y", "", "Y_c"}, node);
  AddInt(*node, "input_forget", 1);
  const auto outputs = Run(model, {{"X", PatternInput({2, 1, 1}, 0.1)}});
  CheckNear(outputs.at("Y"), {2, 1, 1, 2}, kCoupledY);
  CheckNear(outputs.at("Y_c"), {1, 1, 2}, kCoupledYc);
}

TEST_CASE("GRU bidirectional, linear_before_reset 0 and 1, matches numpy") {
  ::onnx::NodeProto* node = nullptr;
  const std::int64_t h = 3;
  auto model = RecurrentModel(
      "GRU", {3, 2, 2}, {"X", "W", "R", "B", "", "h0"},
      {{"W", {2, 3 * h, 2}, 0.2}, {"R", {2, 3 * h, h}, 0.3}, {"B", {2, 6 * h}, 0.4}, {"h0", {2, 2, h}, 0.5}},
      {"Y", "Y_h"}, node);
  AddString(*node, "direction", "bidirectional");
  const NpyArray x = PatternInput({3, 2, 2}, 0.1);
  SUBCASE("linear_before_reset 0: the reset gate scales H before R_h") {
    const auto outputs = Run(model, {{"X", x}});
    CheckNear(outputs.at("Y"), {3, 2, 2, 3}, kGruY);
    CheckNear(outputs.at("Y_h"), {2, 2, 3}, kGruYh);
  }
  SUBCASE("linear_before_reset 1 (PyTorch's): the reset gate scales H R_h^T + Rb_h") {
    AddInt(*node, "linear_before_reset", 1);
    const auto outputs = Run(model, {{"X", x}});
    CheckNear(outputs.at("Y"), {3, 2, 2, 3}, kGruLinearY);
    CheckNear(outputs.at("Y_h"), {2, 2, 3}, kGruLinearYh);
  }
}

TEST_CASE("RNN reverse with LeakyRelu (activation_alpha) and clip matches numpy") {
  ::onnx::NodeProto* node = nullptr;
  auto model = RecurrentModel("RNN", {3, 2, 2}, {"X", "W", "R", "B"},
                              {{"W", {1, 2, 2}, 2.2}, {"R", {1, 2, 2}, 1.9}, {"B", {1, 4}, 5.0}}, {"Y", "Y_h"}, node);
  AddString(*node, "direction", "reverse");
  AddStrings(*node, "activations", {"LeakyRelu"});
  auto* alpha = node->add_attribute();
  alpha->set_name("activation_alpha");
  alpha->set_type(::onnx::AttributeProto::FLOATS);
  alpha->add_floats(0.5f);
  AddFloat(*node, "clip", 0.6f);
  const auto outputs = Run(model, {{"X", PatternInput({3, 2, 2}, 0.1, 4.0f)}});
  CheckNear(outputs.at("Y"), {3, 1, 2, 2}, kRnnY);
  CheckNear(outputs.at("Y_h"), {1, 2, 2}, kRnnYh);
}

TEST_CASE("recurrent ops: an activation without a layer and a bad sequence_lens are named") {
  ::onnx::NodeProto* node = nullptr;
  SUBCASE("an unknown activation is unsupported, naming it") {
    auto model =
        RecurrentModel("RNN", {1, 1, 1}, {"X", "W", "R"}, {{"W", {1, 1, 1}, 0}, {"R", {1, 1, 1}, 0}}, {"Y"}, node);
    AddStrings(*node, "activations", {"Gelu"});
    CHECK_THROWS_WITH_AS(ImportProto(model), doctest::Contains("activation 'Gelu'"), UnsupportedModelError);
  }
  SUBCASE("a constant length above T is a model error") {
    auto model = RecurrentModel("GRU", {2, 1, 1}, {"X", "W", "R", "", "lengths"},
                                {{"W", {1, 3, 1}, 0}, {"R", {1, 3, 1}, 0}}, {"Y"}, node);
    AddInt32Initializer(*model.mutable_graph(), "lengths", {5});
    CHECK_THROWS_WITH_AS(ImportProto(model), doctest::Contains("sequence_lens holds 5, outside [0, 2]"), Exception);
  }
  SUBCASE("W of the wrong shape is a model error naming both shapes") {
    auto model =
        RecurrentModel("LSTM", {2, 1, 3}, {"X", "W", "R"}, {{"W", {1, 8, 2}, 0}, {"R", {1, 8, 2}, 0}}, {"Y"}, node);
    CHECK_THROWS_WITH_AS(ImportProto(model), doctest::Contains("W has shape [1,8,2], expected [1,8,3]"), Exception);
  }
}

/* The generator of the expected values (python3, numpy), ONNX's equations read directly:

import numpy as np
def pat(shape, seed):
    n = int(np.prod(shape))
    return (0.5 * np.sin(0.37 * np.arange(n) + seed)).astype(np.float32).reshape(shape).astype(np.float64)
sig=lambda x:1/(1+np.exp(-x))
def run(cell, X, W, R, B, lens, h0, c0, P, directions, fs, clip=None, input_forget=False, lbr=False):
    T,Bn,I=X.shape; nd=W.shape[0]; H=R.shape[2]
    Y=np.zeros((T,nd,Bn,H)); Yh=np.zeros((nd,Bn,H)); Yc=np.zeros((nd,Bn,H))
    cl=(lambda v: np.clip(v,-clip,clip)) if clip is not None else (lambda v:v)
    for d in range(nd):
        rev = directions=='reverse' or d==1
        f=fs[d]
        h=h0[d].copy() if h0 is not None else np.zeros((Bn,H)); c=c0[d].copy() if c0 is not None else np.zeros((Bn,H))
        Wb=B[d][:B.shape[1]//2] if B is not None else 0; Rb=B[d][B.shape[1]//2:] if B is not None else 0
        order = range(T-1,-1,-1) if rev else range(T)
        for t in order:
            x=X[t]
            if cell=='lstm':
                g=x@W[d].T+h@R[d].T+Wb+Rb
                i_,o_,f_,cc=np.split(g,4,axis=1)
                if P is not None:
                    pi,po,pf=np.split(P[d],3)
                    i_=i_+pi*c; f_=f_+pf*c
                i=f[0](cl(i_)); fg=1-i if input_forget else f[0](cl(f_)); ct=f[1](cl(cc))
                cn=fg*c+i*ct
                if P is not None: o_=o_+po*cn
                o=f[0](cl(o_)); hn=o*f[2](cn)
            elif cell=='gru':
                gx=x@W[d].T+(Wb if B is not None else 0)
                Rz,Rr,Rh=np.split(R[d],3);
                rb=np.split(Rb,3) if B is not None else (0,0,0)
                xz,xr,xh=np.split(gx,3,axis=1)
                z=f[0](cl(xz+h@Rz.T+rb[0])); r=f[0](cl(xr+h@Rr.T+rb[1]))
                if lbr: hh=f[1](cl(xh+r*(h@Rh.T+rb[2])))
                else: hh=f[1](cl(xh+(r*h)@Rh.T+rb[2]))
                hn=(1-z)*hh+z*h; cn=c
            else:
                hn=f[0](cl(x@W[d].T+h@R[d].T+Wb+Rb)); cn=c
            if lens is not None:
                m=(t<lens)[:,None]
                Y[t,d]=np.where(m,hn,0); h=np.where(m,hn,h); c=np.where(m,cn,c)
            else:
                Y[t,d]=hn; h=hn; c=cn
        Yh[d]=h; Yc[d]=c
    return Y,Yh,Yc

with X = pat((3, 2, 2), 0.1) (RNN: 4 X) and the weights of each test case, e.g. case A:
    run('lstm', X, W, R, B, np.array([3, 2]), h0, c0, P, 'bidirectional', [[sig, tanh, tanh]] * 2)
*/
