// The entry points of the CpuOneDnn plugin (or, built with BACKPLANE_STATIC_BACKEND, its entry
// in the runtime's static-backend list).
#include "onednn_backend.hpp"

#include <backplane/plugin.hpp>

BACKPLANE_BACKEND_PLUGIN(CpuOneDnn, BACKPLANE_BACKEND_VENDOR, BACKPLANE_BACKEND_VERSION,
                         backplane::onednn::OneDnnBackend)
