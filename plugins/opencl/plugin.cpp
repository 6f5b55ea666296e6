// The entry points of the GpuOpenCl plugin (or, built with BACKPLANE_STATIC_BACKEND, its entry
// in the runtime's static-backend list). Version and vendor come from backplane_add_backend(),
// so they always equal the manifest's.
#include "opencl_backend.hpp"

#include <backplane/plugin.hpp>

BACKPLANE_BACKEND_PLUGIN(GpuOpenCl, BACKPLANE_BACKEND_VENDOR, BACKPLANE_BACKEND_VERSION,
                         backplane::opencl::OpenClBackend)
