#include <backplane/plugin.hpp>

#include <mutex>

// GuardedFactory and LastFactoryError are inline in plugin.hpp: they are compiled into each
// plugin (with the adapter they call), so each library reports its own factory errors.

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
}  // namespace

void RegisterStaticBackend(StaticBackendEntry entry) {
  auto& list = StaticBackends();
  std::lock_guard<std::mutex> lock(list.mutex);
  list.entries.push_back(entry);
}

std::vector<StaticBackendEntry> GetStaticBackends() {
  auto& list = StaticBackends();
  std::lock_guard<std::mutex> lock(list.mutex);
  return list.entries;
}

}  // namespace backplane
