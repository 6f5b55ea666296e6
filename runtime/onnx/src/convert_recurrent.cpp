// ONNX RNN, GRU and LSTM (opsets 7-14: layout 0 and 1, every direction, optional B,
// sequence_lens, initial_h / initial_c and P, the activations attribute, clip, input_forget,
// GRU's linear_before_reset) as one Recurrent layer (the op schema owns its semantics, ONNX's;
// backends run the time steps). Here: the attributes read and checked, layout 1 as Transposes
// around the time-major layer, and the optional inputs as the layer takes them: an absent one
// before a given one becomes its neutral value (zero bias, zero state, zero peepholes, every
// length T), and trailing absent or neutral ones are left off (a constant all-T sequence_lens and
// constant zero initial states), so a backend sees the plain form when the model has it.
// sequence_lens may be computed at run time (the layer masks by it).
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

// What the node says, checked.
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
  std::optional<Term> lengths;      // sequence_lens, when it is not every length T
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
                       "' (known: Relu, Tanh, Sigmoid, Affine, LeakyRelu, ThresholdedRelu, "
                       "ScaledTanh, HardSigmoid, Elu, Softsign, Softplus)");
    }
    Function f{lower, spec->alpha, spec->beta};
    if (spec->reads_alpha && next_alpha < alphas.size()) f.alpha = alphas[next_alpha++];
    if (spec->reads_beta && next_beta < betas.size()) f.beta = betas[next_beta++];
    functions.push_back(f);
  }
  return functions;
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

// sequence_lens as the layer's i32 [B]; nothing when every length is T (a constant). A constant
// length outside [0, T] is a model error; a run-time one is the layer's to check.
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
  Term lengths = Input(node, kSequenceLens);
  if (node.InputInfo(kSequenceLens).type != DataType::kInt32) {
    node.Invalid(std::string("sequence_lens is ") + ToString(node.InputInfo(kSequenceLens).type) + ", ONNX's is i32");
  }
  return lengths;
}

// ---- The layer ------------------------------------------------------------------------------

RecurrentActivation ActivationOf(NodeContext& node, const std::string& name) {
  static const std::pair<const char*, RecurrentActivation> kKinds[] = {
      {"relu", RecurrentActivation::kRelu},
      {"tanh", RecurrentActivation::kTanh},
      {"sigmoid", RecurrentActivation::kSigmoid},
      {"affine", RecurrentActivation::kAffine},
      {"leakyrelu", RecurrentActivation::kLeakyRelu},
      {"thresholdedrelu", RecurrentActivation::kThresholdedRelu},
      {"scaledtanh", RecurrentActivation::kScaledTanh},
      {"hardsigmoid", RecurrentActivation::kHardSigmoid},
      {"elu", RecurrentActivation::kElu},
      {"softsign", RecurrentActivation::kSoftsign},
      {"softplus", RecurrentActivation::kSoftplus},
  };
  for (const auto& [text, kind] : kKinds) {
    if (name == text) return kind;
  }
  node.Unsupported("activation '" + name + "'");
}

RecurrentDescriptor DescriptorOf(NodeContext& node, const Recurrence& r) {
  RecurrentDescriptor d;
  d.cell = r.cell == Cell::kRnn ? RecurrentCell::kRnn : r.cell == Cell::kGru ? RecurrentCell::kGru : RecurrentCell::kLstm;
  d.direction = r.directions == 2 ? RecurrentDirection::kBidirectional
                : r.reverse_only ? RecurrentDirection::kReverse
                                 : RecurrentDirection::kForward;
  for (const Function& f : r.functions) {
    d.activations.push_back(static_cast<std::uint32_t>(ActivationOf(node, f.name)));
    d.activation_alpha.push_back(f.alpha);
    d.activation_beta.push_back(f.beta);
  }
  d.clip = r.clip.value_or(0.0f);
  d.linear_before_reset = r.linear_before_reset;
  d.input_forget = r.input_forget;
  return d;
}

bool IsZero(const Term& term) {
  if (!term.constant) return false;
  const auto values = term.constant->AsDoubles();
  return std::all_of(values.begin(), values.end(), [](double v) { return v == 0.0; });
}

Term Zeros(const Dims& dims, DataType type) {
  std::int64_t count = 1;
  for (const auto n : dims) count *= n;
  return Known(ConstantTensor::FromDouble(TensorShape(dims), std::vector<double>(static_cast<std::size_t>(count), 0.0), type));
}

// initial_h or initial_c, time-major [D, B, H]; nothing when absent or a constant of zeros.
std::optional<Term> InitialState(NodeContext& node, const Recurrence& r, std::size_t i, const std::string& suffix) {
  if (!node.HasInput(i)) return std::nullopt;
  Term state = Input(node, i);
  if (IsZero(state)) return std::nullopt;
  return r.batchwise ? Transpose(node, state, {1, 0, 2}, suffix + "_time_major") : state;
}

// The layer's optional inputs 3..7 (B, sequence_lens, initial_h, initial_c, P) in the form it
// takes them: up to the last one that matters, each absent one before it as its neutral value.
std::vector<Term> OptionalInputs(NodeContext& node, const Recurrence& r) {
  const auto nd = static_cast<std::int64_t>(r.directions);
  const std::int64_t gh = GateCount(r.cell) * r.hidden;
  std::optional<Term> given[5];
  if (node.HasInput(kB)) given[0] = Input(node, kB);
  given[1] = r.lengths;
  given[2] = InitialState(node, r, kInitialH, "initial_h");
  if (r.cell == Cell::kLstm) {
    given[3] = InitialState(node, r, kInitialC, "initial_c");
    if (node.HasInput(kPeephole)) given[4] = Input(node, kPeephole);
  }
  const Term neutral[5] = {
      Zeros({nd, 2 * gh}, r.type),
      Known(ConstantTensor::FromInt64(TensorShape{r.batch}, std::vector<std::int64_t>(r.batch, r.steps), DataType::kInt32)),
      Zeros({nd, r.batch, r.hidden}, r.type),
      Zeros({nd, r.batch, r.hidden}, r.type),
      Zeros({nd, 3 * r.hidden}, r.type),
  };
  std::size_t count = 0;
  for (std::size_t i = 0; i < 5; ++i) {
    if (given[i]) count = i + 1;
  }
  std::vector<Term> inputs;
  for (std::size_t i = 0; i < count; ++i) inputs.push_back(given[i] ? *given[i] : neutral[i]);
  return inputs;
}

// Y [T, D, B, H] (layout 1: [B, T, D, H]) and the states [D, B, H] (layout 1: [B, D, H]).
void SetOutputs(NodeContext& node, const Recurrence& r, LayerId layer) {
  for (std::size_t i = 0; i < node.NumOutputs(); ++i) {
    if (!node.HasOutput(i)) continue;
    Term out{std::nullopt, OutputSlot{layer, static_cast<std::uint32_t>(i)}, std::nullopt};
    if (r.batchwise) {
      out = i == 0 ? Transpose(node, out, {2, 0, 1, 3}, "Y_batchwise")
                   : Transpose(node, out, {1, 0, 2}, i == 1 ? "Y_h_batchwise" : "Y_c_batchwise");
    }
    SetOutput(node, i, out);
  }
}

void Convert(NodeContext& node, Cell cell, const std::vector<std::string>& default_functions) {
  Recurrence r;
  r.cell = cell;
  ReadGeometry(node, r);
  if (node.HasAttribute("clip")) {
    r.clip = node.Float("clip", 0.0f);
    if (!(*r.clip > 0)) node.Invalid("clip " + std::to_string(*r.clip) + " is not positive");
  }
  r.input_forget = node.Int("input_forget", 0) != 0;
  r.linear_before_reset = node.Int("linear_before_reset", 0) != 0;
  if (r.input_forget && cell != Cell::kLstm) node.Invalid("input_forget is LSTM's attribute");
  if (r.linear_before_reset && cell != Cell::kGru) node.Invalid("linear_before_reset is GRU's attribute");
  r.functions = ReadFunctions(node, default_functions, r.directions);
  r.lengths = ReadLengths(node, r);
  Term x = Input(node, kX);
  if (r.batchwise) x = Transpose(node, x, {1, 0, 2}, "X_time_major");
  std::vector<Term> inputs{x, Input(node, kW), Input(node, kR)};
  for (Term& optional : OptionalInputs(node, r)) inputs.push_back(std::move(optional));
  std::vector<OutputSlot> slots;
  for (std::size_t i = 0; i < inputs.size(); ++i) slots.push_back(SlotOf(node, inputs[i], "input" + std::to_string(i)));
  const std::uint32_t outputs = cell == Cell::kLstm ? 3 : 2;
  SetOutputs(node, r, node.AddLayer(DescriptorOf(node, r), slots, outputs));
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
