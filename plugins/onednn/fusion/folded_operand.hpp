// What an anchor's input folds in: data movement as a strided view of its source (a matmul's
// run-time operands, strided_view.cpp) or a channel gate (a convolution's input, channel_gate.cpp).
//
// Folded data movement (matmuls of two run-time operands, as in attention): the layers between
// an operand's source tensor and the matmul - Slice (unit steps), Reshape, Flatten, Transpose,
// and a Mul or Div by a constant scalar - join the chain when each is read by the next alone
// and the composition is a strided view of the source (dims, strides, offset). The matmul
// then reads the source through that view, the scalars become one scale post-op in front, and
// a Transpose right after the matmul becomes a strided destination (the chain builder's
// ExtendOutputTranspose). Nothing is copied.
//
// Channel gates (squeeze-and-excitation): a convolution reading x * s, with s [1, C, 1, 1]
// computed at run time and the product read by the convolution alone, takes the Mul in; the
// convolution scales its weights by s each run instead of a pass over x. Only where the weights
// have at most half as many elements as x (early, wide layers), so scaling and reordering them
// costs less than the multiply it replaces.
//
// Pure functions of the layer views; thread-safe as they are.
#pragma once

#include <backplane/backend/layer.hpp>

#include <oneapi/dnnl/dnnl.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace backplane::onednn::fusion {

// The layers of the subgraph by name, and those some chain took already.
using LayersByName = std::map<std::string, const backend::ILayerView*>;
using TakenLayers = std::set<const backend::ILayerView*>;

// A strided view of a tensor's dense elements: element (i_0, ..) is offset + sum(i_k strides_k).
struct StridedView {
  dnnl::memory::dims dims, strides;
  std::int64_t offset = 0;
};

// The dense view of `dims`.
StridedView DenseView(const dnnl::memory::dims& dims);

// A matmul of two run-time operands of one rank (attention): data movement may fold into it.
bool FoldsOperands(const backend::ILayerView& layer);

// The data movement between a matmul operand and the tensor it comes from, folded into a view;
// or the channel gate in front of a convolution's input.
struct FoldedOperand {
  std::vector<const backend::ILayerView*> layers;  // source side first; empty when nothing folds
  std::size_t source_input = 0;                    // the input of layers.front() that is the source
  StridedView view;
  float scale = 1.0f;
  // A channel gate (FoldChannelGate): the input of the Mul holding the per-channel scale. The
  // source is then read as it is, not through `view`.
  std::optional<std::size_t> channel_scale_input;
};

// Walks up from input `slot` of `matmul` through layers of this subgraph (by name) that are
// foldable, not yet taken (`taken`) and read by the next one alone; keeps the longest run,
// nearest the matmul, that composes into one view. Nothing folds: an empty FoldedOperand.
FoldedOperand FoldOperand(const backend::ILayerView& matmul, std::size_t slot, const LayersByName& by_name,
                          const TakenLayers& taken);

// A convolution's input computed as x * s (either order), s a run-time [1, C, 1, 1] tensor and
// the product read by the convolution alone, when its constant weights have at most half as
// many elements as x: the Mul folds into the convolution. Otherwise an empty FoldedOperand.
FoldedOperand FoldChannelGate(const backend::ILayerView& conv, const LayersByName& by_name, const TakenLayers& taken);

}  // namespace backplane::onednn::fusion
