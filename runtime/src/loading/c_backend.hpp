// A plugin's BpBackend (backend_c_api.h) as the runtime's backend::IBackend, so the rest of the
// runtime keeps working with the C++ interfaces. Every object the backend hands out (layer
// support, optimization result, memory manager, workload factory, workloads, backend context,
// tensor-handle factories and handles) is wrapped the same way; what the runtime hands the
// plugin (layers, tensor handles, the factory registry, the log channel) is turned into the
// C objects it expects.
//
// Failures: every status a plugin returns becomes a PluginError (plugin_call.hpp) with the
// status's code and a message naming the backend, the C function and, where there is one, the
// layer ("backend CpuRef: create_workload for layer 'conv1': dilation 2 not supported"). The
// "no" answers (BP_STATUS_UNSUPPORTED from is_layer_supported, check_available and a backend
// context's notifications) are not failures: they become false with the status's message as
// the reason. Which table functions a plugin has is decided in c_tables.hpp.
//
// Lifetime: each wrapper owns its C object (destroyed with the object's own destroy) and shares
// the backend's PluginOrigin, which keeps the plugin library loaded, so no C object outlives
// the code that made it.
#pragma once

#include "loading/c_tables.hpp"

#include <backplane/backend/backend.hpp>
#include <backplane/backend_c_api.h>

#include <memory>
#include <string>

namespace backplane::loading {

// Takes ownership of `backend` (what a BackendFactory returned; non-null) and wraps it. Throws
// PluginError naming the backend and the function when its table lacks a required function or
// get_id returns nothing (the backend is destroyed then, when it has a destroy).
std::unique_ptr<backend::IBackend> WrapBackend(BpBackend* backend, OriginPtr origin);

// The reason the last notification of `context` (BeforeLoadNetwork, ...) gave when it refused
// (returned false), and clears it; "" when it gave none or `context` was not made by a wrapped backend. Not
// thread-safe (backend-context calls are serialized by the runtime).
std::string TakeRefusalReason(backend::IBackendContext* context);

}  // namespace backplane::loading
