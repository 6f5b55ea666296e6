// The one place that decides which functions of a plugin's C tables (backend_c_api.h) the
// runtime calls, and how a received status becomes an exception.
//
// A table is read once, when the runtime receives the object, into a runtime-side copy of the
// table type: each function through BP_HAS_FUNCTION (the plugin's table is large enough and the
// pointer is not null), null otherwise. A missing required function is a PluginError naming the
// backend, the object and the function; a missing optional one stays null and the wrapper
// applies its default:
//   BpBackend           required: destroy, get_id, get_info, create_layer_support,
//                                 create_workload_factory
//                       optional: create_backend_context (no context), check_available
//                                 (available), optimize_subgraph (every layer untouched),
//                                 create_memory_manager (none), register_tensor_handle_factories
//                                 (none)
//   BpBackendInfo       required: destroy, data
//   BpBackendContext    required: destroy; optional: each notification (accepts)
//   BpLayerSupport      required: destroy, is_layer_supported
//   BpOptimization      required: destroy; optional: substitutions, failed, untouched (empty
//                       lists); take_payload is required when there are substitutions
//   BpMemoryManager     required: destroy; optional: acquire, release (nothing to do)
//   BpWorkloadFactory   required: destroy, create_workload
//   BpWorkload          required: destroy, execute; optional: get_scratch_size (0), get_info
//                       (nothing said; 2.1)
//   BpTensorHandleFactory required: destroy, get_id, create_handle; optional: get_properties
//                       (map/unmap supported, no import or export)
//   BpTensorHandle      required: destroy, map, unmap; optional: get_info (unused: the runtime
//                       knows what it asked for), import_memory (never imports)
#pragma once

#include "loading/plugin_call.hpp"
#include "loading/shared_library.hpp"

#include <backplane/backend_c_api.h>
#include <backplane/backend_id.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <new>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace backplane::loading {

// Whose C objects these are: the backend's id (for messages) and the library their code lives
// in (null for a static backend). Every wrapper of the backend's objects shares it, so the
// library stays loaded while any of them exists. Immutable; thread-safe.
struct PluginOrigin {
  BackendId id;
  std::shared_ptr<SharedLibrary> library;
};
using OriginPtr = std::shared_ptr<const PluginOrigin>;

// "backend <id>: <function>" or "backend <id>: <function> for layer '<layer>'": how every
// message about a call into a plugin starts.
std::string DescribeCall(const PluginOrigin& origin, std::string_view function, std::string_view layer = {});

// Takes ownership of `status` (a plugin's; may be null). Null: returns. Otherwise destroys it and
// throws PluginError with its code and "<DescribeCall(...)>: <its message>" (the message bounded
// to 4 KiB, control characters escaped).
void CheckStatus(BpStatus* status, const PluginOrigin& origin, std::string_view function,
                 std::string_view layer = {});

// Takes ownership of `status` (non-null) and returns its message (bounded to 1 KiB, control
// characters escaped; "(no message)" when empty), destroying it: for the "no" answers
// (BP_STATUS_UNSUPPORTED) that become a reason.
std::string TakeReason(BpStatus* status);

// The code of a received status without taking it (0 for a null status or one too small to
// hold a code).
std::uint32_t StatusCode(const BpStatus* status);

// ---- Bounds on what a plugin returns -----------------------------------------------------------
// The one place that says how large a value from a plugin may be. Each is checked before the
// runtime allocates or reads anything for it; a larger value is a PluginError naming the backend,
// the function and, where there is one, the layer, never a std::bad_alloc or a read past the
// plugin's memory.
inline constexpr std::size_t kMaxIdBytes = 256;                  // get_id of a backend or handle factory
inline constexpr std::size_t kMaxTextBytes = 64 * 1024;          // any other string (names, reasons, docs)
inline constexpr std::size_t kMaxMessageBytes = 4096;            // a failure's message, cut beyond this
inline constexpr std::size_t kMaxEntries = 64 * 1024;            // entries of an array get_info describes
inline constexpr std::uint64_t kMaxScratchBytes = 1ull << 40;    // get_scratch_size of one workload (1 TiB)

// A string a plugin returned (pointer + length) from `function`; "" for a null pointer. Throws
// PluginError "<DescribeCall(...)>: returned a string of N bytes; the runtime accepts at most M"
// when it claims more than `max_bytes`, without reading it.
std::string FromC(BpString text, std::size_t max_bytes, const PluginOrigin& origin, std::string_view function,
                  std::string_view layer = {});

// A count a plugin returned from `function` for `what` ("devices"), when at most `max`; else
// throws PluginError "<DescribeCall(...)>: <what> has N entries; the runtime accepts at most M".
std::size_t CheckedCount(std::size_t count, std::size_t max, const PluginOrigin& origin, std::string_view function,
                         std::string_view what);

// A NUL-terminated message of a plugin (null: ""), read no further than kMaxMessageBytes, with
// control characters escaped: "abc… (more than 4096 bytes)" when it goes on. For text the C
// boundary gives without a length (the identity's last_factory_error).
std::string BoundedMessage(const char* text);
// A view of `text` for the plugin, valid as long as `text`.
inline BpString ToC(std::string_view text) { return {text.data(), text.size()}; }

// The runtime's copy of the table of `object` (whose first member points to its table), with
// only the functions the plugin has (c_tables.def lists them, required or not).
// Throws PluginError when `object` or its table is null or a required function is missing;
// the object is not destroyed then (its destroy may be the missing one; the caller decides).
// One overload per table of c_tables.def.
#define BP_TABLE_BEGIN(Object) Bp##Object##Table ReadTable(const Bp##Object* object, const PluginOrigin& origin);
#include "loading/c_tables.def"

// Destroys `object` (a plugin's, maybe null) through its own table when that has a destroy:
// for objects whose table could not be read.
template <typename Object>
void DestroyUnread(Object* object) noexcept {
  using Table = std::remove_cv_t<std::remove_pointer_t<decltype(object->table)>>;
  if (object && object->table && BP_HAS_FUNCTION(object->table, Table, destroy)) object->table->destroy(object);
}

// Owns one C object of a plugin: destroys it with its table's destroy (read once) when it goes.
// Move-only. Not thread-safe.
template <typename Object, typename Table>
class Owned {
 public:
  Owned() = default;
  // Reads `object`'s table (ReadTable) and takes ownership. On a missing required function the
  // object is destroyed when its destroy exists, and PluginError is thrown.
  Owned(Object* object, const PluginOrigin& origin) : object_(object) {
    try {
      table_ = ReadTable(object, origin);
    } catch (...) {
      DestroyUnread(object);
      object_ = nullptr;
      throw;
    }
  }
  ~Owned() { Reset(); }
  Owned(Owned&& other) noexcept : object_(other.object_), table_(other.table_) { other.object_ = nullptr; }
  Owned& operator=(Owned&& other) noexcept {
    if (this != &other) {
      Reset();
      object_ = other.object_;
      table_ = other.table_;
      other.object_ = nullptr;
    }
    return *this;
  }
  Owned(const Owned&) = delete;
  Owned& operator=(const Owned&) = delete;

  Object* get() const { return object_; }
  const Table& table() const { return table_; }
  explicit operator bool() const { return object_ != nullptr; }
  void Reset() noexcept {
    if (object_) table_.destroy(object_);
    object_ = nullptr;
  }

 private:
  Object* object_ = nullptr;
  Table table_{};
};

// A new Wrapper(object, args...), whose constructor takes ownership of `object`; when even the
// allocation fails, `object` is destroyed before std::bad_alloc is thrown, so it never leaks.
template <typename Wrapper, typename Object, typename... Args>
std::unique_ptr<Wrapper> Adopt(Object* object, Args&&... args) {
  Wrapper* wrapper = new (std::nothrow) Wrapper(object, std::forward<Args>(args)...);
  if (wrapper == nullptr) {
    DestroyUnread(object);
    throw std::bad_alloc();
  }
  return std::unique_ptr<Wrapper>(wrapper);
}

}  // namespace backplane::loading
