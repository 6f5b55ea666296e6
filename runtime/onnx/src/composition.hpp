// Compositions: ONNX ops the importer writes as several layers that already exist, one step
// at a time over Terms. A step whose inputs are all constants at import is folded (folding::*)
// when its result fits the fold limit; any other becomes a layer named "<node>/<suffix>". So a
// node on constants folds whole, and one converter serves both cases.
//
// Used by convert_composed.cpp (PRelu, OneHot, normalizations, ...), convert_losses.cpp,
// convert_recurrent.cpp, convert_einsum.cpp and Clip's run-time bounds. All
// functions throw as NodeContext does (NodeUnsupported, Exception for malformed nodes).
#pragma once

#include "import_context.hpp"

#include <backplane/descriptors.hpp>

#include <optional>
#include <string>
#include <vector>

namespace backplane::onnx::composition {

using Dims = std::vector<std::int64_t>;

// A value a composition computes: known at import (`constant`) or a network tensor (`slot`).
// A constant gets a slot when a layer reads it: the node's input `input` through
// NodeContext::Slot (one Constant layer however often it is read), any other as a new Constant.
struct Term {
  std::optional<ConstantTensor> constant;
  std::optional<OutputSlot> slot;
  std::optional<std::size_t> input;
};

// The node's input i.
Term Input(NodeContext& node, std::size_t i);
Term Known(ConstantTensor constant);
// A rank-0 constant of `type` (a scalar operand broadcasts against any shape).
Term Scalar(double value, DataType type);
// A rank-0 constant of integer `type`, exact for every 64-bit value.
Term IntegerScalar(std::int64_t value, DataType type);
// The term's network tensor (a Constant layer "<node>/<suffix>" for a constant without one).
OutputSlot SlotOf(NodeContext& node, Term& term, const std::string& suffix);
// The term's shape (a layer's inferred by the network).
Dims DimsOf(NodeContext& node, Term& term);

// One layer of `descriptor` over `inputs` (never folded), named "<node>/<suffix>" (the node's
// name when empty).
template <typename Descriptor>
Term Layer(NodeContext& node, const Descriptor& descriptor, std::vector<Term*> inputs, const std::string& suffix) {
  std::vector<OutputSlot> slots;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    slots.push_back(SlotOf(node, *inputs[i], (suffix.empty() ? "output" : suffix) + "_input" + std::to_string(i)));
  }
  return {std::nullopt, node.Add(descriptor, slots, suffix), std::nullopt};
}

// a <op> b with numpy broadcasting.
Term Binary(NodeContext& node, BinaryOperation operation, Term a, Term b, const std::string& suffix);
Term Unary(NodeContext& node, UnaryOperation operation, Term x, const std::string& suffix);
// cond ? a : b, broadcast together.
Term Select(NodeContext& node, Term cond, Term a, Term b, const std::string& suffix);
// The reduction over `axes` (every axis when empty), kept as 1s or dropped.
Term Reduce(NodeContext& node, ReduceOperation operation, Term x, const Dims& axes, bool keep_dims,
            const std::string& suffix);
// The mean over `axes` (kept as 1s).
Term Mean(NodeContext& node, Term x, const Dims& axes, const std::string& suffix);
Term Reshape(NodeContext& node, Term x, const Dims& dims, const std::string& suffix);
Term Transpose(NodeContext& node, Term x, const Dims& permutation, const std::string& suffix);
Term Cast(NodeContext& node, Term x, DataType to, const std::string& suffix);
// x[starts:ends] along `axes` (step 1; ONNX Slice clamping).
Term Slice(NodeContext& node, Term x, const Dims& starts, const Dims& ends, const Dims& axes,
           const std::string& suffix);
// The terms joined along `axis` (one term is returned as it is).
Term Concat(NodeContext& node, std::vector<Term> parts, std::int64_t axis, const std::string& suffix);
// numpy.matmul(a, b) as a MatMul layer (never folded: the network's constant folding may).
Term MatMul(NodeContext& node, Term a, Term b, const std::string& suffix);
// An Activation layer (never folded).
Term Activation(NodeContext& node, ActivationFunction function, Term x, const std::string& suffix,
                float alpha = 0.0f, float beta = 0.0f);
// Output i of the node is the term.
void SetOutput(NodeContext& node, std::size_t i, Term term);

}  // namespace backplane::onnx::composition
