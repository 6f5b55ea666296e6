// Tensor handles and their factories (spec 002).
//
// A backend registers one or more tensor-handle factories, each with a globally unique id of
// the form "Vendor/Backend/Factory", and states in order of preference which factories (its
// own or other backends') it can work with. The optimizer uses these to give every edge of
// the network direct compatibility (no copy), export/import (no copy) or a copy.
#pragma once

#include <backplane/backend/memory.hpp>
#include <backplane/types.hpp>

#include <memory>
#include <string>

namespace backplane::backend {

using FactoryId = std::string;

// The runtime's own factory: plain host memory, mappable, importing and exporting host
// pointers. A backend that registers no factory of its own uses it; a backend whose own
// factories are not host memory lists it in GetHandleFactoryPreferences to say it can also
// work on host tensors directly.
inline constexpr const char* kHostFactoryId = "Backplane/Host/Memory";

// Memory holding one tensor. Owned by whoever created it (an execution context, usually).
// Not thread-safe: one run uses one handle at a time.
class ITensorHandle {
 public:
  virtual ~ITensorHandle();
  virtual const TensorInfo& GetInfo() const = 0;
  // CPU-addressable pointer to the first element, valid until Unmap. Throws
  // backplane::Exception if the handle cannot be mapped.
  virtual void* Map() = 0;
  virtual void Unmap() = 0;
  // Makes the handle use `memory` (of `source` type, at least GetInfo().NumBytes() long)
  // without a copy. Returns false, changing nothing, when this handle cannot import it
  // (wrong source, alignment). The caller keeps ownership and keeps it alive while in use.
  virtual bool Import(void* memory, MemorySource source) = 0;
};

struct TensorHandleFactoryProperties {
  bool supports_map_unmap = true;
  MemorySourceFlags import_sources = 0;  // MemorySource bits Import accepts
  MemorySourceFlags export_sources = 0;  // MemorySource bits its handles can be exported as
};

// Creates tensor handles of one kind. Thread-safe; owned by the registry it is registered in.
class ITensorHandleFactory {
 public:
  virtual ~ITensorHandleFactory();
  virtual const FactoryId& GetId() const = 0;
  virtual TensorHandleFactoryProperties GetProperties() const = 0;
  // Returns a new handle; throws backplane::Exception when memory cannot be had.
  virtual std::unique_ptr<ITensorHandle> CreateTensorHandle(const TensorInfo& info) const = 0;
};

// Where a backend registers its factories (IBackend::RegisterTensorHandleFactories).
// Implemented by the runtime.
class ITensorHandleFactoryRegistry {
 public:
  virtual ~ITensorHandleFactoryRegistry();
  // Takes ownership. Throws backplane::Exception on a duplicate or malformed id.
  virtual void RegisterFactory(std::unique_ptr<ITensorHandleFactory> factory) = 0;
};

}  // namespace backplane::backend
