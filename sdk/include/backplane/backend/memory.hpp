// Memory: a backend's memory manager and the application's custom allocator hook (spec 001).
#pragma once

#include <cstddef>
#include <cstdint>

namespace backplane::backend {

// Where a block of memory lives; a bit mask where several are possible.
enum class MemorySource : std::uint32_t {
  kUndefined = 0,
  kHost = 1u << 0,           // ordinary CPU-addressable memory
  kDmaBuf = 1u << 1,         // a Linux dma-buf file descriptor
  kDmaBufProtected = 1u << 2 // protected content (see ProtectedContentAllocation)
};
using MemorySourceFlags = std::uint32_t;

// A backend's pool of working memory for one loaded network. The runtime calls Acquire before
// the network's first run and Release when it is unloaded. Calls are serialized by the
// runtime; implementations need not be thread-safe.
class IMemoryManager {
 public:
  virtual ~IMemoryManager();
  virtual void Acquire() = 0;
  virtual void Release() = 0;
};

// An application-provided allocator a backend may be asked to use for its tensors
// (IBackend::UseCustomMemoryAllocator). Must be thread-safe. Allocate returns null on failure.
class ICustomAllocator {
 public:
  virtual ~ICustomAllocator();
  virtual void* Allocate(std::size_t size, std::size_t alignment) = 0;
  virtual void Free(void* pointer) = 0;
  virtual MemorySource GetMemorySourceType() const = 0;
};

}  // namespace backplane::backend
