#include "loading/plugin_call.hpp"

#include "platform/message_text.hpp"

#include <exception>

namespace backplane::loading {

PluginError::~PluginError() = default;

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
