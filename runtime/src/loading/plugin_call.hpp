// The one rule for calling into backend (plugin) code after registration: whatever the backend
// throws, of any type, becomes a backplane::Exception naming the backend, the function and the
// layer. Nothing a backend throws reaches the application as a foreign type, and a `throw 42`
// never terminates the application.
//
// Since Backend API 2.0 backends are reached through the C boundary's wrappers (c_backend.hpp),
// which turn every status a plugin returns into a PluginError that already names the backend,
// the function and the layer; CallPlugin passes those through unchanged and describes anything
// else (the runtime's own errors inside the call, std::bad_alloc) as before.
#pragma once

#include <backplane/backend_id.hpp>
#include <backplane/exception.hpp>

#include <string>
#include <string_view>
#include <utility>

namespace backplane::loading {

// A failure a backend reported through the C boundary, its message already naming the backend,
// the function and the layer ("backend CpuRef: create_workload for layer 'conv1': ..."). Thrown
// only by the wrappers of c_backend.hpp. Thread-safe to copy and read.
class PluginError : public Exception {
 public:
  using Exception::Exception;
  ~PluginError() override;
};

// "backend B: <function>" or "backend B: <function> for layer '<layer>'": how every message
// about one call into a backend starts (c_tables.hpp's DescribeCall, PluginCallInProgress).
std::string DescribeCall(const BackendId& backend, std::string_view function, std::string_view layer = {});

// Marks the calling thread as running `function` of `backend` (for layer `layer`, maybe null)
// from construction to destruction, for backplane::PluginCallInProgress (plugin_activity.hpp).
// Scopes nest (the innermost is reported). Keeps the pointers: `backend` and `layer` must outlive
// it. Costs a thread-local store on entry and exit; never throws. Not movable.
class PluginCallScope {
 public:
  PluginCallScope(const BackendId& backend, const char* function, const std::string* layer) noexcept;
  ~PluginCallScope();
  PluginCallScope(const PluginCallScope&) = delete;
  PluginCallScope& operator=(const PluginCallScope&) = delete;

  // DescribeCall of the innermost scope of this thread, or "" when there is none.
  static std::string Innermost();

 private:
  const BackendId& backend_;
  const char* function_;
  const std::string* layer_;
  const PluginCallScope* outer_;
};

// What a backend threw. Value type.
struct PluginFailure {
  ErrorCode code = ErrorCode::kBackendFailure;  // a backplane::Exception's own code, else this
  std::string what;   // its what(), or "" for an exception not derived from std::exception
  bool standard = true;  // false: not derived from std::exception (`throw 42`)
};

// The exception being handled. Call only inside a catch block; never throws but for
// std::bad_alloc.
PluginFailure CurrentPluginFailure();

// "backend B threw from IsLayerSupported for layer 'add1': <what>", or "backend B threw a
// non-standard exception from Execute for layer 'add1'" (" for layer ..." when `layer` is not
// empty).
std::string DescribePluginFailure(const PluginFailure& failure, const BackendId& backend,
                                  const char* function, const std::string& layer);

// Rethrows the exception being handled as Exception(failure code, DescribePluginFailure(...)),
// or unchanged when it is a PluginError. Call only inside a catch block.
[[noreturn]] void RethrowPluginFailure(const BackendId& backend, const char* function,
                                       const std::string& layer);

// Calls `call()` (backend code) within a PluginCallScope and returns what it returns; rethrows
// whatever it throws as RethrowPluginFailure does. Costs nothing but the try block when nothing is thrown.
template <typename Call>
decltype(auto) CallPlugin(const BackendId& backend, const char* function, const std::string& layer, Call&& call) {
  const PluginCallScope scope(backend, function, &layer);
  try {
    return std::forward<Call>(call)();
  } catch (...) {
    RethrowPluginFailure(backend, function, layer);
  }
}

}  // namespace backplane::loading
