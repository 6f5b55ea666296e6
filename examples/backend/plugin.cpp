// The plugin's entry points (spec 001's GetBackendId, GetVersion, BackendFactory and the
// identity descriptor), all emitted by one macro. The id, vendor and version come from
// backplane_add_backend() as compile definitions, so they always equal the manifest's.
#include "example_backend.hpp"

#include <backplane/plugin.hpp>

BACKPLANE_BACKEND_PLUGIN(BACKPLANE_BACKEND_ID, BACKPLANE_BACKEND_VENDOR, BACKPLANE_BACKEND_VERSION,
                         example::ExampleBackend)
