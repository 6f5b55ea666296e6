#include <backplane/plugin.hpp>

#include <mutex>

namespace backplane {

namespace {
struct StaticBackendList {
  std::mutex mutex;
  std::vector<StaticBackendEntry> entries;
};

// Constructed on first use, so registration from other translation units' static
// initialisers is safe whatever the initialisation order.
StaticBackendList& StaticBackends() {
  static StaticBackendList list;
  return list;
}

thread_local std::string last_factory_error;
}  // namespace

void RegisterStaticBackend(StaticBackendEntry entry) {
  auto& list = StaticBackends();
  std::lock_guard<std::mutex> lock(list.mutex);
  list.entries.push_back(std::move(entry));
}

std::vector<StaticBackendEntry> GetStaticBackends() {
  auto& list = StaticBackends();
  std::lock_guard<std::mutex> lock(list.mutex);
  return list.entries;
}

namespace plugin_detail {

void* GuardedFactory(backend::IBackend* (*create)()) {
  last_factory_error.clear();
  try {
    return create();
  } catch (const std::exception& error) {
    last_factory_error = error.what();
  } catch (...) {
    last_factory_error = "unknown exception";
  }
  if (last_factory_error.empty()) last_factory_error = "exception with an empty message";
  return nullptr;
}

const char* LastFactoryError() { return last_factory_error.c_str(); }

}  // namespace plugin_detail
}  // namespace backplane
