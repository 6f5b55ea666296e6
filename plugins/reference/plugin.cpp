// The entry points of the CpuRef plugin (or, built with BACKPLANE_STATIC_BACKEND, its entry in
// the runtime's static-backend list). Version and vendor come from backplane_add_backend(), so
// they always equal the manifest's.
#include "reference_backend.hpp"

#include <backplane/plugin.hpp>

BACKPLANE_BACKEND_PLUGIN(CpuRef, BACKPLANE_BACKEND_VENDOR, BACKPLANE_BACKEND_VERSION,
                         backplane::reference::ReferenceBackend)
