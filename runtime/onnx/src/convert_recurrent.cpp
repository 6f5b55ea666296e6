// ONNX RNN, GRU and LSTM (opsets 7-14: layout 0 and 1, every direction, optional B,
// sequence_lens, initial_h / initial_c and P, the activations attribute, clip, input_forget,
// GRU's linear_before_reset), composed from existing layers unrolled over the T time steps the
// import knows (every input shape is fixed at import).
//
// Per direction: one MatMul of all steps of X with W^T plus the biases up front, then per step a
// Slice of that projection, a MatMul of the state with R^T, Add, Slices per gate, Activations and
// elementwise Mul/Add; Y, Y_h and Y_c are Concats (and a Transpose for layout 1). Written over
// Terms, so constant weights fold (W^T, R^T and the summed biases become constants). A zero
// initial state (absent, or a constant of zeros) skips the first step's recurrence.
//
// sequence_lens (constant or computed at run time): step t of batch entry b runs when
// t < sequence_lens[b]; otherwise the state is kept and Y is 0 there (Where layers over a bool
// mask [B, 1]). Processing the reverse direction from T - 1 down keeps its state at the initial
// one until t < sequence_lens[b], so both directions follow ONNX.
#include "composition.hpp"
#include "converters.hpp"

#include <backplane/descriptors.hpp>

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <vector>

namespace backplane::onnx {

namespace {

using namespace composition;

enum class Cell { kRnn, kGru, kLstm };

// The node's inputs, as ONNX numbers them.
enum Inputs : std::size_t { kX, kW, kR, kB, kSequenceLens, kInitialH, kInitialC, kPeephole };

std::int64_t GateCount(Cell cell) { return cell == Cell::kRnn ? 1 : cell == Cell::kGru ? 3 : 4; }

// One entry of the activations attribute with its alpha and beta.
struct Function {
  std::string name;  // lower case
  float alpha = 0.0f;
  float beta = 0.0f;
};

// What every step of one node reads.
struct Recurrence {
  Cell cell = Cell::kRnn;
  std::int64_t steps = 0, batch = 0, input = 0, hidden = 0;
  std::size_t directions = 1;
  bool reverse_only = false;  // direction "reverse"
  bool batchwise = false;     // layout 1
  DataType type = DataType::kFloat32;
  std::optional<float> clip;
  bool input_forget = false;
  bool linear_before_reset = false;
  std::vector<Function> functions;  // per direction: f (RNN); f, g (GRU); f, g, h (LSTM)
  Term x_rows;                      // X as [T * B, I], time-major
  std::optional<Term> lengths;      // sequence_lens as [B, 1]
};

// ---- Attributes -----------------------------------------------------------------------------

std::string Lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

// Defaults of alpha and beta (ONNX's operators of those names); whether the function reads them.
struct FunctionSpec {
  const char* name;
  bool reads_alpha, reads_beta;
  float alpha, beta;
};
constexpr FunctionSpec kFunctions[] = {
    {"relu", false, false, 0, 0},
    {"tanh", false, false, 0, 0},
    {"sigmoid", false, false, 0, 0},
    {"softsign", false, false, 0, 0},
    {"softplus", false, false, 0, 0},
    {"leakyrelu", true, false, 0.01f, 0},
    {"thresholdedrelu", true, false, 1.0f, 0},
    {"elu", true, false, 1.0f, 0},
    {"hardsigmoid", true, true, 0.2f, 0.5f},
    {"scaledtanh", true, true, 1.0f, 1.0f},
    {"affine", true, true, 1.0f, 0.0f},
};

// The activations attribute with activation_alpha / activation_beta consumed in order by the
// functions that read them (as ONNX Runtime does); one direction's list serves both.
std::vector<Function> ReadFunctions(NodeContext& node, const std::vector<std::string>& defaults,
                                    std::size_t directions) {
  std::vector<std::string> names;
  for (const auto& a : node.node().attribute()) {
    if (a.name() == "activations") names.assign(a.strings().begin(), a.strings().end());
  }
  if (names.empty()) names = defaults;
  if (names.size() == defaults.size() && directions == 2) {
    const std::vector<std::string> one = names;
    names.insert(names.end(), one.begin(), one.end());
  }
  if (names.size() != defaults.size() * directions) {
    node.Invalid("activations has " + std::to_string(names.size()) + " entries, expected " +
                 std::to_string(defaults.size() * directions));
  }
  const std::vector<float> alphas = node.Floats("activation_alpha");
  const std::vector<float> betas = node.Floats("activation_beta");
  std::size_t next_alpha = 0, next_beta = 0;
  std::vector<Function> functions;
  for (const auto& name : names) {
    const std::string lower = Lower(name);
    const auto* spec = std::find_if(std::begin(kFunctions), std::end(kFunctions),
                                    [&](const FunctionSpec& s) { return lower == s.name; });
    if (spec == std::end(kFunctions)) {
      node.Unsupported("activation '" + name +
                       "' (composed: Relu, Tanh, Sigmoid, Affine, LeakyRelu, ThresholdedRelu, "
                       "ScaledTanh, HardSigmoid, Elu, Softsign, Softplus)");
    }
    Function f{lower, spec->alpha, spec->beta};
    if (spec->reads_alpha && next_alpha < alphas.size()) f.alpha = alphas[next_alpha++];
    if (spec->reads_beta && next_beta < betas.size()) f.beta = betas[next_beta++];
    functions.push_back(f);
  }
  return functions;
}

// f(x) as Activation layers (ScaledTanh and Affine as their arithmetic).
Term Apply(NodeContext& node, const Function& f, Term x, const std::string& suffix) {
  const DataType type = node.InputInfo(kX).type;
  if (f.name == "affine") {
    const Term scaled = Binary(node, BinaryOperation::kMul, std::move(x), Scalar(f.alpha, type), suffix + "_scaled");
    return Binary(node, BinaryOperation::kAdd, scaled, Scalar(f.beta, type), suffix);
  }
  if (f.name == "scaledtanh") {
    const Term scaled = Binary(node, BinaryOperation::kMul, std::move(x), Scalar(f.beta, type), suffix + "_scaled");
    const Term tanh = Activation(node, ActivationFunction::kTanh, scaled, suffix + "_tanh");
    return Binary(node, BinaryOperation::kMul, tanh, Scalar(f.alpha, type), suffix);
  }
  static const std::pair<const char*, ActivationFunction> kLayers[] = {
      {"relu", ActivationFunction::kRelu},
      {"tanh", ActivationFunction::kTanh},
      {"sigmoid", ActivationFunction::kSigmoid},
      {"softsign", ActivationFunction::kSoftsign},
      {"softplus", ActivationFunction::kSoftplus},
      {"leakyrelu", ActivationFunction::kLeakyRelu},
      {"thresholdedrelu", ActivationFunction::kThresholdedRelu},
      {"elu", ActivationFunction::kElu},
      {"hardsigmoid", ActivationFunction::kHardSigmoid},
  };
  for (const auto& [name, function] : kLayers) {
    if (f.name == name) return Activation(node, function, std::move(x), suffix, f.alpha, f.beta);
  }
  node.Unsupported("activation '" + f.name + "'");
}

// ---- Shapes ---------------------------------------------------------------------------------

std::string Str(const Dims& dims) { return ToString(TensorShape(dims)); }

void RequireShape(NodeContext& node, std::size_t i, const Dims& expected, const char* what) {
  if (node.HasInput(i) && node.InputDims(i) != expected) {
    node.Invalid(std::string(what) + " has shape " + Str(node.InputDims(i)) + ", expected " + Str(expected));
  }
}

// Every input's shape against X's and R's, and its type (X's).
void CheckInputs(NodeContext& node, const Recurrence& r) {
  const auto nd = static_cast<std::int64_t>(r.directions);
  const std::int64_t gh = GateCount(r.cell) * r.hidden;
  const Dims state = r.batchwise ? Dims{r.batch, nd, r.hidden} : Dims{nd, r.batch, r.hidden};
  RequireShape(node, kW, {nd, gh, r.input}, "W");
  RequireShape(node, kR, {nd, gh, r.hidden}, "R");
  RequireShape(node, kB, {nd, 2 * gh}, "B");
  RequireShape(node, kSequenceLens, {r.batch}, "sequence_lens");
  RequireShape(node, kInitialH, state, "initial_h");
  if (r.cell == Cell::kLstm) {
    RequireShape(node, kInitialC, state, "initial_c");
    RequireShape(node, kPeephole, {nd, 3 * r.hidden}, "P");
  }
  for (std::size_t i : {kW, kR, kB, kInitialH, kInitialC, kPeephole}) {
    if (node.HasInput(i) && node.InputInfo(i).type != r.type) {
      node.Invalid("input " + std::to_string(i) + " is " + ToString(node.InputInfo(i).type) + ", X is " +
                   ToString(r.type));
    }
  }
}

// Reads and checks every shape, the direction and the layout into `r`.
void ReadGeometry(NodeContext& node, Recurrence& r) {
  const Dims& x = node.InputDims(kX);
  const Dims& w = node.InputDims(kW);
  const Dims& rw = node.InputDims(kR);
  if (x.size() != 3 || w.size() != 3 || rw.size() != 3) {
    node.Invalid("X " + Str(x) + ", W " + Str(w) + " and R " + Str(rw) + " must have rank 3");
  }
  r.batchwise = node.Int("layout", 0) != 0;
  if (node.opset() < 14 && node.HasAttribute("layout")) node.Invalid("attribute 'layout' is new in opset 14");
  r.steps = r.batchwise ? x[1] : x[0];
  r.batch = r.batchwise ? x[0] : x[1];
  r.input = x[2];
  r.hidden = node.Int("hidden_size", rw[2]);
  const std::string direction = node.String("direction", "forward");
  if (direction != "forward" && direction != "reverse" && direction != "bidirectional") {
    node.Invalid("direction '" + direction + "' is not forward, reverse or bidirectional");
  }
  r.directions = direction == "bidirectional" ? 2 : 1;
  r.reverse_only = direction == "reverse";
  if (r.steps <= 0 || r.batch <= 0 || r.hidden <= 0) node.Unsupported("an empty sequence, batch or hidden state");
  r.type = node.InputInfo(kX).type;
  CheckInputs(node, r);
}

// sequence_lens as [B, 1]; nothing when every length is T (a constant). A constant length
// outside [0, T] is a model error.
std::optional<Term> ReadLengths(NodeContext& node, const Recurrence& r) {
  if (!node.HasInput(kSequenceLens)) return std::nullopt;
  if (const ConstantTensor* lengths = node.ConstantInput(kSequenceLens)) {
    const auto values = lengths->ToInt64();
    for (const auto length : values) {
      if (length < 0 || length > r.steps) {
        node.Invalid("sequence_lens holds " + std::to_string(length) + ", outside [0, " + std::to_string(r.steps) +
                     "]");
      }
    }
    if (std::all_of(values.begin(), values.end(), [&](std::int64_t v) { return v == r.steps; })) return std::nullopt;
  }
  return Reshape(node, Input(node, kSequenceLens), {r.batch, 1}, "sequence_lens");
}

// ---- Per direction --------------------------------------------------------------------------

// The direction's parameters, in the forms a step reads.
struct Weights {
  Term projection;                   // X W^T + biases [T * B, G * H]
  Term recurrence;                   // R^T [H, G * H] (GRU with linear_before_reset 0: [H, 2H])
  std::optional<Term> recurrence_h;  // GRU, linear_before_reset 0: Rh^T [H, H]
  std::optional<Term> hidden_bias;   // GRU, linear_before_reset 1: Rbh [H]
  std::optional<Term> peephole[3];   // LSTM: Pi, Po, Pf [H]
};

// The network tensor of a term read at every step: one Constant layer for a constant.
Term Shared(NodeContext& node, Term term, const std::string& suffix) {
  SlotOf(node, term, suffix);
  return term;
}

// Input i's entry of direction d along `axis`, reshaped to `dims`.
Term OfDirection(NodeContext& node, std::size_t i, std::size_t d, std::int64_t axis, const Dims& dims,
                 const std::string& suffix) {
  const auto at = static_cast<std::int64_t>(d);
  return Reshape(node, Slice(node, Input(node, i), {at}, {at + 1}, {axis}, suffix + "_slice"), dims, suffix);
}

// Columns [from, to) of a matrix.
Term Columns(NodeContext& node, Term x, std::int64_t from, std::int64_t to, const std::string& suffix) {
  return Slice(node, std::move(x), {from}, {to}, {1}, suffix);
}

// Elements [from, to) of a vector.
Term Part(NodeContext& node, Term x, std::int64_t from, std::int64_t to, const std::string& suffix) {
  return Slice(node, std::move(x), {from}, {to}, {0}, suffix);
}

// The input projection's bias [G * H]: Wb + Rb, but for GRU with linear_before_reset Rbh stays
// out (it is applied inside the reset gate's product).
Term ProjectionBias(NodeContext& node, const Recurrence& r, std::size_t d, const std::string& at, Weights& w) {
  const std::int64_t gh = GateCount(r.cell) * r.hidden;
  const Term b = OfDirection(node, kB, d, 0, {2 * gh}, at + "bias");
  const Term wb = Part(node, b, 0, gh, at + "input_bias");
  Term rb = Part(node, b, gh, 2 * gh, at + "recurrence_bias");
  if (r.cell == Cell::kGru && r.linear_before_reset) {
    w.hidden_bias = Shared(node, Part(node, rb, 2 * r.hidden, gh, at + "hidden_bias"), at + "hidden_bias");
    const Term zero =
        Known(ConstantTensor::FromDouble(TensorShape{r.hidden}, std::vector<double>(r.hidden, 0.0), r.type));
    rb = Concat(node, {Part(node, rb, 0, 2 * r.hidden, at + "gate_bias"), zero}, 0, at + "recurrence_bias_zr");
  }
  return Binary(node, BinaryOperation::kAdd, wb, rb, at + "bias_sum");
}

Weights ReadWeights(NodeContext& node, const Recurrence& r, std::size_t d, const std::string& at) {
  const std::int64_t gh = GateCount(r.cell) * r.hidden;
  Weights w;
  const Term wt = Transpose(node, OfDirection(node, kW, d, 0, {gh, r.input}, at + "W"), {1, 0}, at + "W_transposed");
  w.projection = MatMul(node, r.x_rows, wt, at + "input_projection");
  if (node.HasInput(kB)) {
    w.projection = Binary(node, BinaryOperation::kAdd, w.projection, ProjectionBias(node, r, d, at, w),
                          at + "input_projection_bias");
  }
  w.projection = Shared(node, w.projection, at + "input_projection");
  Term rt = Transpose(node, OfDirection(node, kR, d, 0, {gh, r.hidden}, at + "R"), {1, 0}, at + "R_transposed");
  if (r.cell == Cell::kGru && !r.linear_before_reset) {
    w.recurrence_h = Shared(node, Columns(node, rt, 2 * r.hidden, gh, at + "Rh_transposed"), at + "Rh_transposed");
    rt = Columns(node, rt, 0, 2 * r.hidden, at + "Rzr_transposed");
  }
  w.recurrence = Shared(node, rt, at + "R_transposed");
  if (r.cell == Cell::kLstm && node.HasInput(kPeephole)) {
    const Term p = OfDirection(node, kPeephole, d, 0, {3 * r.hidden}, at + "P");
    static const char* const kNames[] = {"Pi", "Po", "Pf"};
    for (std::int64_t g = 0; g < 3; ++g) {
      w.peephole[g] = Shared(node, Part(node, p, g * r.hidden, (g + 1) * r.hidden, at + kNames[g]), at + kNames[g]);
    }
  }
  return w;
}

// The state of one direction; nothing for zeros (then the step skips what it multiplies).
struct State {
  std::optional<Term> h, c;
};

bool IsZero(const Term& term) {
  if (!term.constant) return false;
  const auto values = term.constant->AsDoubles();
  return std::all_of(values.begin(), values.end(), [](double v) { return v == 0.0; });
}

std::optional<Term> InitialOf(NodeContext& node, const Recurrence& r, std::size_t i, std::size_t d,
                              const std::string& suffix) {
  if (!node.HasInput(i)) return std::nullopt;
  Term state = OfDirection(node, i, d, r.batchwise ? 1 : 0, {r.batch, r.hidden}, suffix);
  if (IsZero(state)) return std::nullopt;
  return state;
}

// ---- Steps ----------------------------------------------------------------------------------

// Columns [g H, (g + 1) H) of a [B, G * H] tensor: gate g.
Term Gate(NodeContext& node, const Recurrence& r, const Term& gates, std::int64_t g, const std::string& suffix) {
  return Columns(node, gates, g * r.hidden, (g + 1) * r.hidden, suffix);
}

Term Add(NodeContext& node, Term a, Term b, const std::string& suffix) {
  return Binary(node, BinaryOperation::kAdd, std::move(a), std::move(b), suffix);
}

Term Mul(NodeContext& node, Term a, Term b, const std::string& suffix) {
  return Binary(node, BinaryOperation::kMul, std::move(a), std::move(b), suffix);
}

// f(clip(x)): the clip bounds every activation's input.
Term Activate(NodeContext& node, const Recurrence& r, const Function& f, Term x, const std::string& suffix) {
  if (r.clip) x = Activation(node, ActivationFunction::kClip, std::move(x), suffix + "_clip", -*r.clip, *r.clip);
  return Apply(node, f, std::move(x), suffix);
}

// x_t + h R^T (x_t alone for a zero state).
Term WithRecurrence(NodeContext& node, const Term& x_t, const std::optional<Term>& h, const Term& rt,
                    const std::string& at) {
  if (!h) return x_t;
  return Add(node, MatMul(node, *h, rt, at + "recurrence"), x_t, at + "gates");
}

// RNN: H = f(x_t + H R^T).
State RnnStep(NodeContext& node, const Recurrence& r, const Weights& w, const Function* fs, const Term& x_t,
              const State& s, const std::string& at) {
  return {Activate(node, r, fs[0], WithRecurrence(node, x_t, s.h, w.recurrence, at), at + "h"), std::nullopt};
}

// The input of GRU's h~: x_h + r (.) (H Rh^T + Rbh) with linear_before_reset, else
// x_h + (r (.) H) Rh^T (Rbh is in x_h then); `hr` is H R^T (nothing for a zero H).
Term CandidateInput(NodeContext& node, const Recurrence& r, const Weights& w, const Term& x_t,
                    const std::optional<Term>& hr, const Term& reset, const std::optional<Term>& h,
                    const std::string& at) {
  Term h_pre = Gate(node, r, x_t, 2, at + "h_input");
  if (r.linear_before_reset) {
    std::optional<Term> recurrent = w.hidden_bias;
    if (hr) {
      const Term rh = Gate(node, r, *hr, 2, at + "h_recurrence");
      recurrent = w.hidden_bias ? Add(node, rh, *w.hidden_bias, at + "h_recurrence_bias") : rh;
    }
    if (recurrent) h_pre = Add(node, h_pre, Mul(node, reset, *recurrent, at + "h_reset"), at + "h_pre");
  } else if (h) {
    const Term reset_h = Mul(node, reset, *h, at + "h_reset");
    h_pre = Add(node, MatMul(node, reset_h, *w.recurrence_h, at + "h_recurrence"), h_pre, at + "h_pre");
  }
  return h_pre;
}

// GRU (gates z, r, h): H = (1 - z) h~ + z H.
State GruStep(NodeContext& node, const Recurrence& r, const Weights& w, const Function* fs, const Term& x_t,
              const State& s, const std::string& at) {
  std::optional<Term> hr;
  if (s.h) hr = MatMul(node, *s.h, w.recurrence, at + "recurrence");
  auto pre = [&](std::int64_t g, const char* name) {
    const Term x = Gate(node, r, x_t, g, at + name + "_input");
    return hr ? Add(node, Gate(node, r, *hr, g, at + name + "_recurrence"), x, at + name + "_pre") : x;
  };
  const Term z = Activate(node, r, fs[0], pre(0, "z"), at + "z");
  const Term reset = Activate(node, r, fs[0], pre(1, "r"), at + "r");
  const Term candidate =
      Activate(node, r, fs[1], CandidateInput(node, r, w, x_t, hr, reset, s.h, at), at + "h_candidate");
  // (1 - z) h~ + z H as h~ + z (H - h~) (h~ - z h~ for a zero H): no operand broadcast first,
  // which CpuOneDnn's binary ops take only second.
  if (!s.h)
    return {Binary(node, BinaryOperation::kSub, candidate, Mul(node, z, candidate, at + "h_kept"), at + "h"),
            std::nullopt};
  const Term change = Binary(node, BinaryOperation::kSub, *s.h, candidate, at + "h_change");
  return {Add(node, candidate, Mul(node, z, change, at + "h_kept"), at + "h"), std::nullopt};
}

// LSTM (gates i, o, f, c): C = f C + i c~, H = o h(C); peepholes add P (.) C to i, f (the old
// C) and o (the new C).
State LstmStep(NodeContext& node, const Recurrence& r, const Weights& w, const Function* fs, const Term& x_t,
               const State& s, const std::string& at) {
  const Term gates = WithRecurrence(node, x_t, s.h, w.recurrence, at);
  auto pre = [&](std::int64_t g, const char* name, const std::optional<Term>& c, const std::optional<Term>& p) {
    Term x = Gate(node, r, gates, g, at + name + "_pre");
    if (c && p) x = Add(node, x, Mul(node, *p, *c, at + name + "_peephole"), at + name + "_pre_peephole");
    return x;
  };
  const Term i = Activate(node, r, fs[0], pre(0, "i", s.c, w.peephole[0]), at + "i");
  // input_forget: f = 1 - i, written -i + 1 (the constant second, as backends broadcast it).
  const Term f = r.input_forget
                     ? Add(node, Unary(node, UnaryOperation::kNeg, i, at + "i_negated"), Scalar(1, r.type), at + "f")
                     : Activate(node, r, fs[0], pre(2, "f", s.c, w.peephole[2]), at + "f");
  const Term candidate = Activate(node, r, fs[1], pre(3, "c", std::nullopt, std::nullopt), at + "c_candidate");
  Term c = Mul(node, i, candidate, at + "c_new");
  if (s.c) c = Add(node, Mul(node, f, *s.c, at + "c_kept"), c, at + "c");
  const Term o = Activate(node, r, fs[0], pre(1, "o", c, w.peephole[1]), at + "o");
  const Term h = Mul(node, o, Apply(node, fs[2], c, at + "c_activated"), at + "h");
  return {h, c};
}

// Where step t does not run (t >= sequence_lens[b]): `next` keeps `kept` (zeros when absent).
Term Masked(NodeContext& node, const Recurrence& r, const Term& mask, const Term& next, const std::optional<Term>& kept,
            const std::string& suffix) {
  return Select(node, mask, next, kept ? *kept : Scalar(0, r.type), suffix);
}

// One direction over every step: Y's entries by time (when wanted) and the last state.
struct Unrolled {
  std::vector<Term> outputs;
  State last;
};

Unrolled RunDirection(NodeContext& node, const Recurrence& r, std::size_t d, bool reverse, bool want_y) {
  const std::string at = r.directions == 2 ? (reverse ? "reverse/" : "forward/") : "";
  const Weights w = ReadWeights(node, r, d, at);
  State s{InitialOf(node, r, kInitialH, d, at + "initial_h"),
          r.cell == Cell::kLstm ? InitialOf(node, r, kInitialC, d, at + "initial_c") : std::nullopt};
  const Function* fs = &r.functions[d * (r.functions.size() / r.directions)];
  auto step = r.cell == Cell::kLstm ? LstmStep : r.cell == Cell::kGru ? GruStep : RnnStep;
  Unrolled result;
  if (want_y) result.outputs.resize(static_cast<std::size_t>(r.steps));
  for (std::int64_t k = 0; k < r.steps; ++k) {
    const std::int64_t t = reverse ? r.steps - 1 - k : k;
    const std::string here = at + "t" + std::to_string(t) + "/";
    const Term x_t = Slice(node, w.projection, {t * r.batch}, {(t + 1) * r.batch}, {0}, here + "input");
    State next = step(node, r, w, fs, x_t, s, here);
    Term y = *next.h;
    if (r.lengths) {
      const Term mask = Binary(node, BinaryOperation::kLess, IntegerScalar(t, node.InputInfo(kSequenceLens).type),
                               *r.lengths, here + "running");
      y = Masked(node, r, mask, *next.h, std::nullopt, here + "y");
      next.h = Masked(node, r, mask, *next.h, s.h, here + "h_masked");
      if (next.c) next.c = Masked(node, r, mask, *next.c, s.c, here + "c_masked");
    }
    if (want_y) result.outputs[static_cast<std::size_t>(t)] = y;
    s = next;
  }
  result.last = s;
  return result;
}

// ---- Outputs --------------------------------------------------------------------------------

// Y [T, D, B, H] (layout 1: [B, T, D, H]) from each direction's steps.
Term StackY(NodeContext& node, const Recurrence& r, std::vector<Unrolled>& runs) {
  std::vector<Term> directions;
  for (std::size_t d = 0; d < runs.size(); ++d) {
    const Term rows = Concat(node, runs[d].outputs, 0, "Y_rows" + std::to_string(d));
    directions.push_back(Reshape(node, rows, {r.steps, 1, r.batch, r.hidden}, "Y_direction" + std::to_string(d)));
  }
  const Term y = Concat(node, directions, 1, "Y_time_major");
  return r.batchwise ? Transpose(node, y, {2, 0, 1, 3}, "Y_batchwise") : y;
}

// Y_h or Y_c [D, B, H] (layout 1: [B, D, H]).
Term StackState(NodeContext& node, const Recurrence& r, std::vector<Term> states, const std::string& name) {
  const auto nd = static_cast<std::int64_t>(r.directions);
  const Term stacked =
      Reshape(node, Concat(node, std::move(states), 0, name + "_rows"), {nd, r.batch, r.hidden}, name + "_stacked");
  return r.batchwise ? Transpose(node, stacked, {1, 0, 2}, name + "_batchwise") : stacked;
}

void Convert(NodeContext& node, Cell cell, const std::vector<std::string>& default_functions) {
  Recurrence r;
  r.cell = cell;
  ReadGeometry(node, r);
  if (node.HasAttribute("clip")) r.clip = node.Float("clip", 0.0f);
  r.input_forget = node.Int("input_forget", 0) != 0;
  r.linear_before_reset = node.Int("linear_before_reset", 0) != 0;
  r.functions = ReadFunctions(node, default_functions, r.directions);
  Term x = Input(node, kX);
  if (r.batchwise) x = Transpose(node, x, {1, 0, 2}, "X_time_major");
  r.x_rows = Shared(node, Reshape(node, x, {r.steps * r.batch, r.input}, "X_rows"), "X_rows");
  r.lengths = ReadLengths(node, r);
  std::vector<Unrolled> runs;
  for (std::size_t d = 0; d < r.directions; ++d) {
    runs.push_back(RunDirection(node, r, d, r.reverse_only || d == 1, node.HasOutput(0)));
  }
  if (node.HasOutput(0)) SetOutput(node, 0, StackY(node, r, runs));
  // Every step gives H (and LSTM's C), and T > 0: the last states exist.
  std::vector<Term> hs, cs;
  for (const auto& run : runs) {
    hs.push_back(*run.last.h);
    if (run.last.c) cs.push_back(*run.last.c);
  }
  if (node.HasOutput(1)) SetOutput(node, 1, StackState(node, r, hs, "Y_h"));
  if (node.HasOutput(2)) SetOutput(node, 2, StackState(node, r, cs, "Y_c"));
}

void ConvertRnn(NodeContext& node) { Convert(node, Cell::kRnn, {"Tanh"}); }
void ConvertGru(NodeContext& node) { Convert(node, Cell::kGru, {"Sigmoid", "Tanh"}); }
void ConvertLstm(NodeContext& node) { Convert(node, Cell::kLstm, {"Sigmoid", "Tanh", "Tanh"}); }

}  // namespace

void AddRecurrentConverters(ConverterTable& table) {
  // Opsets 1-6 had the output_sequence attribute and other forms: refused by min_opset 7.
  table["RNN"] = {ConvertRnn, 3, 6, 2, 7};
  table["GRU"] = {ConvertGru, 3, 6, 2, 7};
  table["LSTM"] = {ConvertLstm, 3, 8, 3, 7};
}

}  // namespace backplane::onnx
