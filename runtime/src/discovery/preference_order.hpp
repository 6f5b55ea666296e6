// The default preference order of registered backends (docs/backend-discovery.md §7): the order
// Optimize prefers them in when the application names none. One owner for the rule and for how
// each backend's place is explained.
#pragma once

#include "loading/backend_registry.hpp"

#include <string>

namespace backplane::discovery {

// Sorts the registry: by the device kind each backend declares (accelerator, then gpu, then
// cpu), reference implementations (backend::kReferenceImplementation) after all others; within that, backends of the SDK's own or
// the application's layers (static, default, compiled-in, option, environment) before drops
// (added, user, system), so a drop never silently displaces them; then by id in byte order.
// Sets each BackendInfo::preference to why it stands there. Call once, after registration.
void ApplyDefaultPreferenceOrder(loading::BackendRegistry& registry);

}  // namespace backplane::discovery
