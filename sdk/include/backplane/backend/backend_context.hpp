// Backend context: per-runtime state a backend may keep, notified around network load/unload
// (spec 001 "The IBackendContext interface").
#pragma once

#include <backplane/types.hpp>

namespace backplane::backend {

using backplane::NetworkId;  // the one id of a loaded network (backplane/types.hpp)

// Created by IBackend::CreateBackendContext once per runtime and held for the runtime's
// lifetime. Calls for one network come in order Before/AfterLoad ... Before/AfterUnload; calls
// for different networks may interleave but never run concurrently. Returning false from a
// Before call makes the runtime abort that load or unload with an error naming the backend.
class IBackendContext {
 public:
  virtual ~IBackendContext();
  virtual bool BeforeLoadNetwork(NetworkId network) = 0;
  virtual bool AfterLoadNetwork(NetworkId network) = 0;
  virtual bool BeforeUnloadNetwork(NetworkId network) = 0;
  virtual bool AfterUnloadNetwork(NetworkId network) = 0;
};

}  // namespace backplane::backend
