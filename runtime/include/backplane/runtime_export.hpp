// BACKPLANE_RUNTIME_API: marks what libbackplane exports, its application API (runtime.hpp,
// network.hpp, optimized_network.hpp, execution.hpp, discovery_report.hpp). The library is
// built with hidden visibility, so everything not marked stays inside it.
//
// BACKPLANE_RUNTIME_BUILDING is defined only while libbackplane's own sources are compiled;
// BACKPLANE_RUNTIME_STATIC by targets that link the runtime's objects directly instead of the
// shared library (the runtime's unit tests): nothing is imported or exported then.
#pragma once

#if defined(BACKPLANE_RUNTIME_STATIC)
#define BACKPLANE_RUNTIME_API
#elif defined(_WIN32) || defined(__CYGWIN__)
#if defined(BACKPLANE_RUNTIME_BUILDING)
#define BACKPLANE_RUNTIME_API __declspec(dllexport)
#else
#define BACKPLANE_RUNTIME_API __declspec(dllimport)
#endif
#elif defined(__GNUC__)
#define BACKPLANE_RUNTIME_API __attribute__((visibility("default")))
#else
#define BACKPLANE_RUNTIME_API
#endif
