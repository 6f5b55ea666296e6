// Layer support: how a backend tells the optimizer which layers it can run, and why not.
#pragma once

#include <backplane/backend/layer.hpp>

#include <string>

namespace backplane::backend {

// Created by IBackend::GetLayerSupport. Must be thread-safe: the optimizer may query it from
// several threads. Must not throw; a layer it cannot judge is unsupported, with a reason.
class ILayerSupport {
 public:
  virtual ~ILayerSupport();
  // True when this backend can run `layer` as described. When false, `reason` (never null)
  // receives "<backend> cannot run layer '<name>': <why>" (CannotRunReason in op_table.hpp), the
  // why naming what is unsupported ("dilation 2 is not supported"). A backend with an op table
  // uses OpTableLayerSupport (op_table.hpp), which writes exactly that.
  virtual bool IsLayerSupported(const ILayerView& layer, std::string* reason) const = 0;
};

}  // namespace backplane::backend
