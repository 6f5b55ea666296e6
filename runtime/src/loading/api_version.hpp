// Whether a plugin's Backend API version can be loaded by this runtime, and the one message
// that says why not: used by the manifest check, the library's identity and GetVersion checks,
// and static backends alike.
#pragma once

#include <backplane/version.hpp>

#include <string>

namespace backplane::loading {

// "" when a plugin built for `plugin` loads into a runtime implementing `runtime` (spec 001:
// equal majors, plugin minor <= runtime minor). Otherwise the reason, phrased to follow
// "<plugin> was" and naming both versions and what to do:
//   "built for Backend API 1.1, but this runtime implements 2.0: Backend API 2.0 replaced the
//    C++ interfaces of 1.x with a C boundary; rebuild the plugin against Backplane SDK 0.2 or later
//    (backplane_add_backend)"
//   "built for Backend API 3.0, a different major version than this runtime's 2.0"
//   "built for Backend API 2.1, newer than this runtime's 2.0; use a runtime that implements 2.1"
// Thread-safe.
std::string ApiVersionProblem(BackendApiVersion plugin, BackendApiVersion runtime);

}  // namespace backplane::loading
