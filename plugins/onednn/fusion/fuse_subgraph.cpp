// FuseSubgraph (fusion.hpp): walks the subgraph in topological order; at each anchor, folds what
// its inputs allow (folded_operand.hpp) and extends the chain by the grammar (chain_builder.hpp).
#include "fusion.hpp"

#include "chain_builder.hpp"

namespace backplane::onednn {

namespace {
using backend::ILayerView;

bool IsAnchor(const ILayerView& layer) {
  const OpKernel* op = Ops().Find(layer.GetType());
  std::string why;
  return op && op->takes_post_ops && layer.GetNumOutputs() == 1 && Ops().Supporting(layer, why);
}

// Per anchor input, what folds into it: data movement into a matmul's run-time operands, or a
// channel gate into a convolution's input 0. Adds the folded layers to `taken`.
std::vector<fusion::FoldedOperand> FoldInputs(const ILayerView& anchor, const fusion::LayersByName& by_name,
                                              fusion::TakenLayers& taken) {
  std::vector<fusion::FoldedOperand> folded;
  const bool operands = fusion::FoldsOperands(anchor);
  for (std::size_t slot = 0; slot < (operands ? 2 : 1); ++slot) {
    folded.push_back(operands ? fusion::FoldOperand(anchor, slot, by_name, taken)
                              : fusion::FoldChannelGate(anchor, by_name, taken));
    taken.insert(folded.back().layers.begin(), folded.back().layers.end());
  }
  return folded;
}
}  // namespace

backend::OptimizationViews FuseSubgraph(const backend::SubgraphView& subgraph) {
  backend::OptimizationViews views;
  const auto& layers = subgraph.layers;
  fusion::LayersByName by_name;
  for (const ILayerView* layer : layers) {
    if (layer) by_name[layer->GetName()] = layer;
  }
  fusion::TakenLayers taken;  // members of a chain already
  for (std::size_t i = 0; i < layers.size();) {
    const ILayerView* layer = layers[i];
    if (!layer || taken.count(layer) || !IsAnchor(*layer)) {
      ++i;
      continue;
    }
    fusion::ChainBuilder chain(*layer, FoldInputs(*layer, by_name, taken));
    std::size_t next = i + 1;
    while (next < layers.size() && !taken.count(layers[next])) {
      const std::size_t count = chain.Extend(layers, next);
      if (count == 0) break;
      next += count;
    }
    if (!chain.Empty()) {
      views.substitutions.push_back(chain.Finish());
      const auto& members = views.substitutions.back().replaced.layers;
      taken.insert(members.begin(), members.end());
      i = next;
      continue;
    }
    ++i;
  }
  backend::SubgraphView untouched;
  for (const ILayerView* layer : layers) {
    if (!taken.count(layer)) untouched.layers.push_back(layer);
  }
  if (!untouched.layers.empty()) views.untouched.push_back(std::move(untouched));
  return views;
}

}  // namespace backplane::onednn
