// Memory: where a block of memory lives, and a backend's memory manager (spec 001).
#pragma once

#include <cstddef>
#include <cstdint>

namespace backplane::backend {

// Where a block of memory lives; a bit mask where several are possible.
enum class MemorySource : std::uint32_t {
  kUndefined = 0,
  kHost = 1u << 0,  // ordinary CPU-addressable memory (BP_MEMORY_HOST)
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

}  // namespace backplane::backend
