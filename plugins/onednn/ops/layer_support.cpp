// The support check several ops share beside the SDK's f32 rule (declared in onednn_ops.hpp).
#include "onednn_ops.hpp"

namespace backplane::onednn {

bool FitsOneDnnRank(const TensorShape& shape, std::string& reason) {
  if (shape.Rank() <= kMaxOneDnnRank) return true;
  reason = "tensor " + ToString(shape) + " has rank " + std::to_string(shape.Rank()) + "; oneDNN takes at most " +
           std::to_string(kMaxOneDnnRank) + " dimensions";
  return false;
}

}  // namespace backplane::onednn
