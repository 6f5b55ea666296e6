// ONNX Einsum (opset 12), any equation: explicit ("->") or implicit output, "..." ellipsis,
// repeated letters in one operand (diagonals), letters summed away, any number of operands.
//
// The general rule, over Terms (so constant operands fold):
// - each operand's repeated letters become one diagonal axis (Transpose, Reshape to n * n,
//   Gather of the diagonal positions: exact for every type);
// - a size-1 axis whose letter is longer elsewhere is dropped (it broadcasts);
// - operands are contracted pairwise, left to right: letters of one side needed nowhere later
//   are summed (Reduce) first; then letters of both sides still needed are batch axes, the
//   other shared letters are contracted, the rest free: Transpose + Reshape to [batch, M, K] and
//   [batch, K, N], one MatMul, Reshape back;
// - what the output does not name is summed, and a Transpose gives the output's order.
#include "composition.hpp"
#include "converters.hpp"

#include <backplane/descriptors.hpp>

#include <algorithm>
#include <cctype>
#include <map>
#include <numeric>
#include <set>
#include <string>
#include <vector>

namespace backplane::onnx {

namespace {

using namespace composition;

// A letter is its character code; the k-th axis an ellipsis stands for (counted over the widest
// ellipsis, right-aligned) is kEllipsis + k, so ellipsis axes sort after letters.
using Label = int;
using Labels = std::vector<Label>;
constexpr Label kEllipsis = 256;

// One term of the equation: its letters and where its "..." is (npos: none).
struct Subscript {
  std::string letters;
  std::size_t ellipsis = std::string::npos;
};

Subscript ParseSubscript(NodeContext& node, const std::string& text) {
  Subscript s;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (std::isalpha(static_cast<unsigned char>(text[i]))) {
      s.letters.push_back(text[i]);
    } else if (text.compare(i, 3, "...") == 0 && s.ellipsis == std::string::npos) {
      s.ellipsis = s.letters.size();
      i += 2;
    } else {
      node.Invalid("equation term '" + text + "' has '" + text[i] + "' (letters and one '...' are allowed)");
    }
  }
  return s;
}

// The labels of a term for an operand of `rank` (ellipsis axes numbered up to `widest`).
Labels LabelsOf(const Subscript& s, std::size_t ellipsis_rank, std::size_t widest) {
  Labels labels;
  for (std::size_t i = 0; i <= s.letters.size(); ++i) {
    if (i == s.ellipsis) {
      for (std::size_t k = widest - ellipsis_rank; k < widest; ++k) labels.push_back(kEllipsis + static_cast<Label>(k));
    }
    if (i < s.letters.size()) labels.push_back(static_cast<unsigned char>(s.letters[i]));
  }
  return labels;
}

std::vector<std::string> SplitTerms(const std::string& text) {
  std::vector<std::string> terms(1);
  for (const char c : text) {
    if (c == ',') {
      terms.emplace_back();
    } else {
      terms.back().push_back(c);
    }
  }
  return terms;
}

// An operand as the contraction goes: its term, one label per axis and its shape.
struct Operand {
  Term term;
  Labels labels;
  Dims dims;
};

// The equation, read against the operands' ranks: each operand's labels and the output's.
struct Equation {
  std::vector<Labels> inputs;
  Labels output;
};

// Implicit output: the ellipsis axes, then the letters used once, in ASCII order (`counts` is
// sorted).
Labels ImplicitOutput(const std::map<Label, int>& counts, std::size_t widest) {
  Labels output;
  for (std::size_t k = 0; k < widest; ++k) output.push_back(kEllipsis + static_cast<Label>(k));
  for (const auto& [label, count] : counts) {
    if (label < kEllipsis && count == 1) output.push_back(label);
  }
  return output;
}

// The output term after "->": each letter once, each used by an input; "..." required when the
// inputs' ellipses stand for axes (numpy's rule).
Labels ExplicitOutput(NodeContext& node, const std::string& text, const std::map<Label, int>& counts,
                      std::size_t widest) {
  const Subscript out = ParseSubscript(node, text);
  if (widest > 0 && out.ellipsis == std::string::npos) {
    node.Invalid("output '" + text + "' has no '...' for the inputs' ellipsis axes (numpy's rule)");
  }
  const Labels output = LabelsOf(out, out.ellipsis == std::string::npos ? 0 : widest, widest);
  for (const Label l : output) {
    if (!counts.count(l) || std::count(output.begin(), output.end(), l) > 1) {
      node.Invalid("output '" + text + "' names a letter twice or one no input has");
    }
  }
  return output;
}

Equation ParseEquation(NodeContext& node) {
  std::string text = node.String("equation", "");
  text.erase(std::remove_if(text.begin(), text.end(), [](unsigned char c) { return std::isspace(c); }), text.end());
  const std::size_t arrow = text.find("->");
  const auto terms = SplitTerms(text.substr(0, arrow));
  if (terms.size() != node.NumInputs()) {
    node.Invalid("equation '" + text + "' has " + std::to_string(terms.size()) + " input terms for " +
                 std::to_string(node.NumInputs()) + " inputs");
  }
  std::vector<Subscript> subscripts;
  std::size_t widest = 0;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    subscripts.push_back(ParseSubscript(node, terms[i]));
    const std::size_t rank = node.InputRank(i), letters = subscripts[i].letters.size();
    const bool has_ellipsis = subscripts[i].ellipsis != std::string::npos;
    if (has_ellipsis ? rank < letters : rank != letters) {
      node.Invalid("term '" + terms[i] + "' does not fit input " + std::to_string(i) + " of rank " +
                   std::to_string(rank));
    }
    if (has_ellipsis) widest = std::max(widest, rank - letters);
  }
  Equation e;
  std::map<Label, int> counts;
  for (std::size_t i = 0; i < terms.size(); ++i) {
    e.inputs.push_back(LabelsOf(subscripts[i], node.InputRank(i) - subscripts[i].letters.size(), widest));
    for (const Label l : e.inputs.back()) ++counts[l];
  }
  e.output = arrow == std::string::npos ? ImplicitOutput(counts, widest)
                                        : ExplicitOutput(node, text.substr(arrow + 2), counts, widest);
  return e;
}

// ---- Steps on one operand -------------------------------------------------------------------

std::size_t IndexOf(const Labels& labels, Label l) {
  return static_cast<std::size_t>(std::find(labels.begin(), labels.end(), l) - labels.begin());
}

bool Has(const Labels& labels, Label l) { return std::find(labels.begin(), labels.end(), l) != labels.end(); }

void ReshapeTo(NodeContext& node, Operand& x, const Dims& dims, const std::string& suffix) {
  if (dims != x.dims) x.term = Reshape(node, x.term, dims, suffix);
  x.dims = dims;
}

// Reorders x's axes: axis a of the result is axis permutation[a] of x.
void PermuteAxes(NodeContext& node, Operand& x, const Dims& permutation, const std::string& suffix) {
  Labels labels;
  Dims dims;
  for (const auto p : permutation) {
    labels.push_back(x.labels[static_cast<std::size_t>(p)]);
    dims.push_back(x.dims[static_cast<std::size_t>(p)]);
  }
  Dims identity(permutation.size());
  std::iota(identity.begin(), identity.end(), 0);
  if (permutation != identity) x.term = Transpose(node, x.term, permutation, suffix);
  x.labels = labels;
  x.dims = dims;
}

// Reorders x's axes to `order` (labels of x, each once).
void Permute(NodeContext& node, Operand& x, const Labels& order, const std::string& suffix) {
  Dims permutation;
  for (const Label l : order) permutation.push_back(static_cast<std::int64_t>(IndexOf(x.labels, l)));
  PermuteAxes(node, x, permutation, suffix);
}

// Sums the axes whose labels `keep` rejects.
template <typename Keep>
void SumOut(NodeContext& node, Operand& x, Keep keep, const std::string& suffix) {
  Dims axes, dims;
  Labels labels;
  for (std::size_t a = 0; a < x.labels.size(); ++a) {
    if (keep(x.labels[a])) {
      labels.push_back(x.labels[a]);
      dims.push_back(x.dims[a]);
    } else {
      axes.push_back(static_cast<std::int64_t>(a));
    }
  }
  if (axes.empty()) return;
  // Axes of length 1 only: their sum is the tensor itself, reshaped.
  if (TensorShape(dims).NumElements() == TensorShape(x.dims).NumElements()) {
    ReshapeTo(node, x, dims, suffix);
  } else {
    x.term = Reduce(node, ReduceOperation::kSum, x.term, axes, false, suffix);
    x.dims = dims;
  }
  x.labels = labels;
}

// The first label x holds twice, or -1.
Label Repeated(const Operand& x) {
  for (std::size_t a = 0; a < x.labels.size(); ++a) {
    if (IndexOf(x.labels, x.labels[a]) != a) return x.labels[a];
  }
  return -1;
}

// x[..., i, ..., i, ...] -> x[..., i]: the two axes moved last, flattened, and the positions
// i * (n + 1) gathered.
void TakeDiagonal(NodeContext& node, Operand& x, Label l, const std::string& suffix) {
  const std::size_t first = IndexOf(x.labels, l);
  const std::size_t second = first + 1 + IndexOf(Labels(x.labels.begin() + first + 1, x.labels.end()), l);
  const std::int64_t n = x.dims[first];
  if (x.dims[second] != n) {
    node.Invalid("a repeated letter names axes of lengths " + std::to_string(n) + " and " +
                 std::to_string(x.dims[second]));
  }
  Dims permutation;
  for (std::size_t a = 0; a < x.labels.size(); ++a) {
    if (a != first && a != second) permutation.push_back(static_cast<std::int64_t>(a));
  }
  permutation.push_back(static_cast<std::int64_t>(first));
  permutation.push_back(static_cast<std::int64_t>(second));
  PermuteAxes(node, x, permutation, suffix + "_transpose");
  Dims flat(x.dims.begin(), x.dims.end() - 2);
  flat.push_back(n * n);
  ReshapeTo(node, x, flat, suffix + "_flat");
  std::vector<std::int64_t> positions;
  for (std::int64_t i = 0; i < n; ++i) positions.push_back(i * (n + 1));
  Term indices = Known(ConstantTensor::FromInt64(TensorShape{n}, positions));
  GatherDescriptor gather;
  gather.axis = static_cast<std::int32_t>(flat.size() - 1);
  x.term = Layer(node, gather, {&x.term, &indices}, suffix);
  x.labels.pop_back();
  x.dims.back() = n;
}

// Input i with its diagonals taken and its size-1 broadcast axes dropped.
Operand Prepare(NodeContext& node, std::size_t i, const Labels& labels, const std::map<Label, std::int64_t>& lengths) {
  const std::string suffix = "input" + std::to_string(i);
  Operand x{Input(node, i), labels, node.InputDims(i)};
  for (Label l = Repeated(x); l != -1; l = Repeated(x)) TakeDiagonal(node, x, l, suffix + "_diagonal");
  Labels kept;
  Dims kept_dims;
  for (std::size_t a = 0; a < x.labels.size(); ++a) {
    if (x.dims[a] != 1 || lengths.at(x.labels[a]) == 1) {
      kept.push_back(x.labels[a]);
      kept_dims.push_back(x.dims[a]);
    }
  }
  ReshapeTo(node, x, kept_dims, suffix + "_broadcast");
  x.labels = kept;
  return x;
}

// The length of each label over every operand: equal, or 1 (broadcast).
std::map<Label, std::int64_t> Lengths(NodeContext& node, const Equation& e) {
  std::map<Label, std::int64_t> lengths;
  for (std::size_t i = 0; i < e.inputs.size(); ++i) {
    const Dims& dims = node.InputDims(i);
    for (std::size_t a = 0; a < dims.size(); ++a) {
      auto [it, fresh] = lengths.emplace(e.inputs[i][a], dims[a]);
      if (fresh || dims[a] == it->second || dims[a] == 1) continue;
      if (it->second != 1) {
        node.Invalid("input " + std::to_string(i) + " axis " + std::to_string(a) + " has length " +
                     std::to_string(dims[a]) + ", another use of its letter " + std::to_string(it->second));
      }
      it->second = dims[a];
    }
  }
  return lengths;
}

// ---- Contraction ----------------------------------------------------------------------------

Dims LengthsOf(const Operand& x, const Labels& labels) {
  Dims dims;
  for (const Label l : labels) dims.push_back(x.dims[IndexOf(x.labels, l)]);
  return dims;
}

std::int64_t Product(const Dims& dims) {
  return std::accumulate(dims.begin(), dims.end(), std::int64_t{1}, std::multiplies<>());
}

// x, y and z one after the other.
template <typename T>
std::vector<T> Joined(std::vector<T> x, const std::vector<T>& y, const std::vector<T>& z) {
  x.insert(x.end(), y.begin(), y.end());
  x.insert(x.end(), z.begin(), z.end());
  return x;
}

// a [batch, M, K] x b [batch, K, N] as one MatMul; the result's labels are batch, M's, N's.
Operand Contract(NodeContext& node, Operand a, Operand b, const std::set<Label>& needed, const std::string& suffix) {
  SumOut(
      node, a, [&](Label l) { return Has(b.labels, l) || needed.count(l); }, suffix + "_sum_a");
  SumOut(
      node, b, [&](Label l) { return Has(a.labels, l) || needed.count(l); }, suffix + "_sum_b");
  Labels batch, free_a, free_b, contracted;
  for (const Label l : a.labels) (Has(b.labels, l) ? (needed.count(l) ? batch : contracted) : free_a).push_back(l);
  for (const Label l : b.labels) {
    if (!Has(a.labels, l)) free_b.push_back(l);
  }
  const Dims batch_dims = LengthsOf(a, batch), m = LengthsOf(a, free_a), k = LengthsOf(a, contracted),
             n = LengthsOf(b, free_b);
  Permute(node, a, Joined(batch, free_a, contracted), suffix + "_a");
  Permute(node, b, Joined(batch, contracted, free_b), suffix + "_b");
  Dims lead = batch.empty() ? Dims{} : Dims{Product(batch_dims)};
  auto with = [&](std::int64_t x, std::int64_t y) {
    Dims d = lead;
    d.push_back(x);
    d.push_back(y);
    return d;
  };
  ReshapeTo(node, a, with(Product(m), Product(k)), suffix + "_a_matrix");
  ReshapeTo(node, b, with(Product(k), Product(n)), suffix + "_b_matrix");
  Operand result{MatMul(node, a.term, b.term, suffix), Joined(batch, free_a, free_b), with(Product(m), Product(n))};
  ReshapeTo(node, result, Joined(batch_dims, m, n), suffix + "_unflatten");
  return result;
}

void ConvertEinsum(NodeContext& node) {
  const Equation e = ParseEquation(node);
  const auto lengths = Lengths(node, e);
  Operand state = Prepare(node, 0, e.inputs[0], lengths);
  for (std::size_t i = 1; i < e.inputs.size(); ++i) {
    std::set<Label> needed(e.output.begin(), e.output.end());
    for (std::size_t j = i + 1; j < e.inputs.size(); ++j) needed.insert(e.inputs[j].begin(), e.inputs[j].end());
    state = Contract(node, state, Prepare(node, i, e.inputs[i], lengths), needed, "contract" + std::to_string(i));
  }
  SumOut(
      node, state, [&](Label l) { return Has(e.output, l); }, "sum");
  // An output label that broadcast away in every input has length 1 (numpy).
  Labels present;
  for (const Label l : e.output) {
    if (Has(state.labels, l)) present.push_back(l);
  }
  Permute(node, state, present, "transpose");
  Dims out;
  for (const Label l : e.output) out.push_back(Has(state.labels, l) ? state.dims[IndexOf(state.labels, l)] : 1);
  ReshapeTo(node, state, out, "output");
  SetOutput(node, 0, state.term);
}

}  // namespace

void AddEinsumConverters(ConverterTable& table) { table["Einsum"] = {ConvertEinsum, 1, kVariadic, 1, 12}; }

}  // namespace backplane::onnx
