// BACKPLANE_RUNTIME_API: marks what libbackplane exports, its application API (runtime.hpp,
// network.hpp, optimized_network.hpp, execution.hpp, discovery_report.hpp). The library is
// built with hidden visibility, so everything not marked stays inside it.
//
// BACKPLANE_RUNTIME_BUILDING is defined only while libbackplane's own sources are compiled;
// BACKPLANE_RUNTIME_STATIC by targets that link the runtime's objects directly instead of the
// shared library (the runtime's unit tests): nothing is imported or exported then.
//
// BACKPLANE_SHARED_EXPORT / BACKPLANE_SHARED_IMPORT are the platform's spelling of both, for
// every library of the application API (libbackplane_onnx's onnx_export.hpp uses them too).
#pragma once

#if defined(_WIN32) || defined(__CYGWIN__)
#define BACKPLANE_SHARED_EXPORT __declspec(dllexport)
#define BACKPLANE_SHARED_IMPORT __declspec(dllimport)
#elif defined(__GNUC__)
#define BACKPLANE_SHARED_EXPORT __attribute__((visibility("default")))
#define BACKPLANE_SHARED_IMPORT __attribute__((visibility("default")))
#else
#define BACKPLANE_SHARED_EXPORT
#define BACKPLANE_SHARED_IMPORT
#endif

#if defined(BACKPLANE_RUNTIME_STATIC)
#define BACKPLANE_RUNTIME_API
#elif defined(BACKPLANE_RUNTIME_BUILDING)
#define BACKPLANE_RUNTIME_API BACKPLANE_SHARED_EXPORT
#else
#define BACKPLANE_RUNTIME_API BACKPLANE_SHARED_IMPORT
#endif
