// Output infos of a graph layer: op set v1's rules are the SDK's op schema
// (backplane/backend/op_schema.hpp); this only reports its reasons the runtime's way.
#include "graph/graph.hpp"

#include <backplane/backend/op_schema.hpp>
#include <backplane/checked_size.hpp>
#include <backplane/exception.hpp>

namespace backplane::graph {

std::vector<TensorInfo> InferOutputInfos(const Layer& layer) {
  std::vector<TensorInfo> infos;
  std::string why;
  if (!backend::InferOutputs(layer, infos, why)) {
    throw Exception(ErrorCode::kInvalidArgument, "layer " + layer.Describe() + ": " + why);
  }
  // Every shape in a graph has an element count (and so every partial product of its
  // dimensions) that fits: what reads it later needs no checks of its own.
  for (const auto& info : infos) CheckedNumBytes(info.shape.Dims(), info.type, "layer " + layer.Describe());
  return infos;
}

}  // namespace backplane::graph
