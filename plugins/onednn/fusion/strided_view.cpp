// Folded data movement (folded_operand.hpp): the layers between a matmul operand and its
// source composed into one strided view of the source.
#include "folded_operand.hpp"

#include "layer_match.hpp"
#include "../dnnl_desc.hpp"

#include <backplane/backend/broadcast.hpp>
#include <backplane/backend/op_geometry.hpp>

namespace backplane::onednn::fusion {

namespace {
using backend::ILayerView;
using backend::LayerType;

// `view` read in the shape `to` (as many elements) without moving any; false when its strides
// do not allow that (numpy's no-copy reshape: the dims merged or split must be contiguous).
bool ReshapeView(StridedView& view, const dnnl::memory::dims& to) {
  dnnl::memory::dims old_dims, old_strides;
  for (std::size_t i = 0; i < view.dims.size(); ++i) {
    if (view.dims[i] == 0) return false;
    if (view.dims[i] != 1) {
      old_dims.push_back(view.dims[i]);
      old_strides.push_back(view.strides[i]);
    }
  }
  dnnl::memory::dims strides(to.size(), 1);
  std::size_t oi = 0, ni = 0;
  while (oi < old_dims.size() && ni < to.size()) {
    // The smallest groups of old and new dims with equal products.
    std::size_t oj = oi + 1, nj = ni + 1;
    std::int64_t old_product = old_dims[oi], new_product = to[ni];
    while (old_product != new_product) {
      if (new_product < old_product) {
        if (nj == to.size()) return false;
        new_product *= to[nj++];
      } else {
        if (oj == old_dims.size()) return false;
        old_product *= old_dims[oj++];
      }
    }
    for (std::size_t k = oi; k + 1 < oj; ++k) {
      if (old_strides[k] != old_dims[k + 1] * old_strides[k + 1]) return false;
    }
    strides[nj - 1] = old_strides[oj - 1];
    for (std::size_t k = nj - 1; k > ni; --k) strides[k - 1] = strides[k] * to[k];
    oi = oj;
    ni = nj;
  }
  view.dims = to;
  view.strides = strides;  // new trailing 1s keep stride 1: never stepped along
  return true;
}

// The input of a foldable data-movement layer that carries the data (its other inputs are
// constants), or false when `layer` is not one: Slice with positive steps, Reshape, Flatten,
// Transpose, or a Mul / Div by a constant scalar that keeps the shape.
bool MovementInput(const ILayerView& layer, std::size_t& input) {
  if (layer.GetNumOutputs() != 1 || !layer.GetDescriptor()) return false;
  float value = 0.0f;
  switch (layer.GetType()) {
    case LayerType::kSlice:
    case LayerType::kReshape:
    case LayerType::kFlatten:
    case LayerType::kTranspose:
      input = 0;
      return true;
    case LayerType::kElementwiseBinary:
      if (layer.GetNumInputs() != 2) return false;
      if (BinaryOf(layer) == BinaryOperation::kDiv && ConstantScalar(layer, 1, value) && value != 0.0f) {
        input = 0;
      } else if (BinaryOf(layer) == BinaryOperation::kMul && ConstantScalar(layer, 1, value)) {
        input = 0;
      } else if (BinaryOf(layer) == BinaryOperation::kMul && ConstantScalar(layer, 0, value)) {
        input = 1;
      } else {
        return false;
      }
      return !layer.GetConstantInput(input) && layer.GetInputInfo(input) == layer.GetOutputInfo(0);
    default:
      return false;
  }
}

// Applies a layer MovementInput accepted to `view` (a Mul / Div to `scale`); false when the
// result is not a strided view.
bool ApplyMovement(const ILayerView& layer, StridedView& view, float& scale) {
  std::string reason;
  switch (layer.GetType()) {
    case LayerType::kSlice: {
      backend::SliceGeometry slice;
      if (!backend::DescribeSlice(layer, slice, reason)) return false;
      for (std::size_t k = 0; k < view.dims.size(); ++k) {
        if (slice.step[k] <= 0) return false;
        view.offset += slice.start[k] * view.strides[k];
        view.strides[k] *= slice.step[k];
      }
      view.dims = DimsOf(layer.GetOutputInfo(0));
      return true;
    }
    case LayerType::kReshape:
    case LayerType::kFlatten:
      return ReshapeView(view, DimsOf(layer.GetOutputInfo(0)));
    case LayerType::kTranspose: {
      backend::TransposeGeometry transpose;
      if (!backend::DescribeTranspose(layer, transpose, reason)) return false;
      StridedView permuted = view;
      for (std::size_t k = 0; k < transpose.permutation.size(); ++k) {
        permuted.dims[k] = view.dims[transpose.permutation[k]];
        permuted.strides[k] = view.strides[transpose.permutation[k]];
      }
      view = permuted;
      return true;
    }
    case LayerType::kElementwiseBinary: {
      float value = 0.0f;
      const bool divides = BinaryOf(layer) == BinaryOperation::kDiv;
      if (!ConstantScalar(layer, divides || layer.GetConstantInput(1) ? 1 : 0, value)) return false;
      scale *= divides ? 1.0f / value : value;
      return true;
    }
    default:
      return false;
  }
}

}  // namespace

StridedView DenseView(const dnnl::memory::dims& dims) {
  return {dims, backend::DenseStrides(TensorShape(dims)), 0};
}

bool FoldsOperands(const ILayerView& layer) {
  return layer.GetType() == LayerType::kMatMul && layer.GetNumInputs() == 2 && !layer.GetConstantInput(0) &&
         !layer.GetConstantInput(1) && layer.GetInputInfo(0).shape.Rank() >= 2 &&
         layer.GetInputInfo(0).shape.Rank() == layer.GetInputInfo(1).shape.Rank();
}

FoldedOperand FoldOperand(const ILayerView& matmul, std::size_t slot, const LayersByName& by_name,
                          const TakenLayers& taken) {
  std::vector<std::pair<const ILayerView*, std::size_t>> path;  // matmul side first, with data input
  const ILayerView* reader = &matmul;
  std::size_t input = slot;
  while (true) {
    std::size_t output = 0;
    const auto found = by_name.find(reader->GetInputProducer(input, &output));
    if (found == by_name.end() || output != 0) break;
    const ILayerView* layer = found->second;
    std::size_t data = 0;
    // A constant source stays a layer: constants are read where they are, without a view.
    if (taken.count(layer) || !ReadBy(*layer, 1) || !MovementInput(*layer, data) || layer->GetConstantInput(data)) {
      break;
    }
    path.emplace_back(layer, data);
    reader = layer;
    input = data;
  }
  // Compose from the source down; when a step fails, start after it.
  while (!path.empty()) {
    FoldedOperand folded;
    const auto& [top, top_input] = path.back();
    folded.source_input = top_input;
    folded.view = DenseView(DimsOf(top->GetInputInfo(top_input)));
    bool composed = true;
    for (auto it = path.rbegin(); it != path.rend() && composed; ++it) {
      composed = ApplyMovement(*it->first, folded.view, folded.scale);
      folded.layers.push_back(it->first);
    }
    if (composed) return folded;
    path.pop_back();
  }
  return {};
}

}  // namespace backplane::onednn::fusion
