#include "loading/plugin_call.hpp"

#include "platform/message_text.hpp"

#include <backplane/plugin_activity.hpp>

#include <exception>

namespace backplane::loading {

PluginError::~PluginError() = default;

namespace {
// The innermost PluginCallScope of each thread. A plain pointer (trivially destructible), so it
// can still be read by an std::atexit handler on the thread that called exit(): the one piece
// of global state here, and each thread has its own.
thread_local const PluginCallScope* innermost_call = nullptr;
}  // namespace

std::string DescribeCall(const BackendId& backend, std::string_view function, std::string_view layer) {
  std::string text = "backend " + backend.Get() + ": ";
  text += function;
  if (!layer.empty()) {
    text += " for layer '";
    text += layer;
    text += "'";
  }
  return text;
}

PluginCallScope::PluginCallScope(const BackendId& backend, const char* function, const std::string* layer) noexcept
    : backend_(backend), function_(function), layer_(layer), outer_(innermost_call) {
  innermost_call = this;
}

PluginCallScope::~PluginCallScope() { innermost_call = outer_; }

std::string PluginCallScope::Innermost() {
  const PluginCallScope* scope = innermost_call;
  if (scope == nullptr) return {};
  return DescribeCall(scope->backend_, scope->function_, scope->layer_ ? *scope->layer_ : std::string_view());
}

}  // namespace backplane::loading

namespace backplane {

std::string PluginCallInProgress() { return loading::PluginCallScope::Innermost(); }

}  // namespace backplane

namespace backplane::loading {

PluginFailure CurrentPluginFailure() {
  PluginFailure failure;
  try {
    throw;
  } catch (const Exception& error) {
    failure.code = error.code();
    failure.what = error.what();
  } catch (const std::exception& error) {
    failure.what = error.what();
  } catch (...) {
    failure.standard = false;
  }
  return failure;
}

std::string DescribePluginFailure(const PluginFailure& failure, const BackendId& backend,
                                  const char* function, const std::string& layer) {
  std::string text = "backend " + backend.Get() + " threw " +
                     (failure.standard ? "" : "a non-standard exception ") + "from " + function;
  if (!layer.empty()) text += " for layer '" + layer + "'";
  if (failure.standard) text += ": " + platform::Bounded(failure.what);
  return text;
}

void RethrowPluginFailure(const BackendId& backend, const char* function, const std::string& layer) {
  try {
    throw;
  } catch (const PluginError&) {
    throw;  // names backend, function and layer already
  } catch (...) {
  }
  const PluginFailure failure = CurrentPluginFailure();
  throw Exception(failure.code, DescribePluginFailure(failure, backend, function, layer));
}

}  // namespace backplane::loading
