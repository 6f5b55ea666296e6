// BACKPLANE_ONNX_API: marks what libbackplane_onnx exports, the importer's API
// (onnx_importer.hpp, npy.hpp). The library is built with hidden visibility, so the converters,
// constant folding and libonnx's protobuf classes stay inside it.
//
// BACKPLANE_ONNX_BUILDING is defined only while libbackplane_onnx's own sources are compiled;
// BACKPLANE_ONNX_STATIC by targets that link the importer's objects directly (its unit tests).
#pragma once

#include <backplane/runtime_export.hpp>

#if defined(BACKPLANE_ONNX_STATIC)
#define BACKPLANE_ONNX_API
#elif defined(BACKPLANE_ONNX_BUILDING)
#define BACKPLANE_ONNX_API BACKPLANE_SHARED_EXPORT
#else
#define BACKPLANE_ONNX_API BACKPLANE_SHARED_IMPORT
#endif
