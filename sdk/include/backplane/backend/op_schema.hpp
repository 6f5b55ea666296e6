// Op set v1's rules, owned once: for every layer type, how many inputs and outputs it has,
// what its descriptor may hold, and the shapes and types of its outputs, inferred from its
// inputs. The runtime infers a network's shapes with InferOutputs, the ONNX importer's constant
// folding computes its result shapes with it, and every backend's op table runs CheckLayer
// before the backend's own limits (data types, ranks, index widths). So a layer the runtime
// accepts is one whose shapes every backend reads the same way, and a refusal says the same
// thing wherever it is made.
//
// Reasons are the plain "what is wrong" ("weights [8,3,3,3] need 4 input channels per group,
// the input has 3 in 1 group"), without the layer's name or type: the caller prefixes the one
// it reports ("<backend> cannot run layer 'conv1': ", "layer conv1 (Convolution2d): ").
//
// Dimension arithmetic is overflow-checked, so hostile shapes from a model file get a reason,
// never a wrapped value. Pure functions of the layer; thread-safe; never throw (but
// std::bad_alloc).
#pragma once

#include <backplane/backend/layer.hpp>
#include <backplane/descriptors.hpp>
#include <backplane/types.hpp>

#include <string>
#include <vector>

namespace backplane::backend {

// Whether ElementwiseBinary `operation` gives bool: the comparisons (kEqual .. kGreaterOrEqual)
// and the logic ops (kAnd, kOr, kXor, whose inputs are bool too); the others give their inputs'
// type. The rule InferOutputs applies.
inline bool GivesBool(BinaryOperation operation) {
  return operation >= BinaryOperation::kEqual && operation <= BinaryOperation::kXor;
}
// Whether `operation` is one of the logic ops, which take bool inputs.
inline bool IsLogical(BinaryOperation operation) {
  return operation >= BinaryOperation::kAnd && operation <= BinaryOperation::kXor;
}

// Whether `operation` is a bit shift (kBitShiftLeft, kBitShiftRight), which takes unsigned
// integers.
inline bool IsBitShift(BinaryOperation operation) {
  return operation == BinaryOperation::kBitShiftLeft || operation == BinaryOperation::kBitShiftRight;
}

// The infos of `layer`'s outputs, inferred from its type, descriptor, input infos and output
// count (GetOutputInfo is not read, except for Input, Constant and PreCompiled layers, whose
// outputs are given, not inferred, and returned as they are). True with `outputs` set, or false
// with `why` when the inputs, the output count or the descriptor break the op's rules.
bool InferOutputs(const ILayerView& layer, std::vector<TensorInfo>& outputs, std::string& why);

// True when `layer` keeps op set v1's rules: InferOutputs accepts it and every output's info is
// the inferred one. Otherwise false with `why`.
bool CheckLayer(const ILayerView& layer, std::string& why);

// A layer as plain values, for code that has no graph to view (the importer's folding, tests):
// the ILayerView of `type` with `descriptor` (not owned; must outlive the view), `inputs` and
// `outputs`. Constant inputs are not available (GetConstantInput returns null).
class LayerValues : public ILayerView {
 public:
  LayerValues(LayerType type, std::string name, const LayerDescriptor* descriptor, std::vector<TensorInfo> inputs,
              std::vector<TensorInfo> outputs);

  LayerType GetType() const override { return type_; }
  const std::string& GetName() const override { return name_; }
  std::size_t GetNumInputs() const override { return inputs_.size(); }
  std::size_t GetNumOutputs() const override { return outputs_.size(); }
  const TensorInfo& GetInputInfo(std::size_t index) const override { return inputs_.at(index); }
  const TensorInfo& GetOutputInfo(std::size_t index) const override { return outputs_.at(index); }
  const LayerDescriptor* GetDescriptor() const override { return descriptor_; }
  const void* GetConstantInput(std::size_t) const override { return nullptr; }

 private:
  LayerType type_;
  std::string name_;
  const LayerDescriptor* descriptor_;
  std::vector<TensorInfo> inputs_;
  std::vector<TensorInfo> outputs_;
};

}  // namespace backplane::backend
