#include "loading/api_version.hpp"

namespace backplane::loading {

std::string ApiVersionProblem(BackendApiVersion plugin, BackendApiVersion runtime) {
  if (IsBackendApiCompatible(plugin, runtime)) return {};
  std::string text = "built for Backend API " + ToString(plugin);
  if (plugin.major == 1 && runtime.major == 2) {
    return text + ", but this runtime implements " + ToString(runtime) +
           ": Backend API 2.0 replaced the C++ interfaces of 1.x with a C boundary; rebuild the plugin against "
           "Backplane SDK " +
           std::to_string(kSdkVersion.major) + "." + std::to_string(kSdkVersion.minor) +
           " or later (backplane_add_backend)";
  }
  if (plugin.major != runtime.major) {
    return text + ", a different major version than this runtime's " + ToString(runtime);
  }
  return text + ", newer than this runtime's " + ToString(runtime) + "; use a runtime that implements " +
         ToString(plugin) + " or later";
}

}  // namespace backplane::loading
