// oneDNN memory descriptors of the SDK's tensors, beside the version shim (dnnl_compat.hpp):
// a TensorInfo's dims as oneDNN takes them, the dense layout of dims, and dims broadcast to a
// rank. Every file of the backend that describes a tensor to oneDNN reads these. Pure functions;
// thread-safe.
#pragma once

#include <backplane/backend/broadcast.hpp>
#include <backplane/types.hpp>

#include <oneapi/dnnl/dnnl.hpp>

#include <cstddef>

namespace backplane::onednn {

// The dims of `info`'s shape; a scalar as one element.
inline dnnl::memory::dims DimsOf(const TensorInfo& info) {
  dnnl::memory::dims dims(info.shape.Dims().begin(), info.shape.Dims().end());
  if (dims.empty()) dims.push_back(1);  // a scalar as one element
  return dims;
}

// The dense row-major layout of `dims` (NCHW for images), f32 unless told.
inline dnnl::memory::desc PlainDesc(const dnnl::memory::dims& dims,
                                    dnnl::memory::data_type type = dnnl::memory::data_type::f32) {
  return dnnl::memory::desc(dims, type, backend::DenseStrides(TensorShape(dims)));
}

// `dims` with leading 1s up to `rank`.
inline dnnl::memory::dims Expand(const dnnl::memory::dims& dims, std::size_t rank) {
  dnnl::memory::dims out(rank > dims.size() ? rank - dims.size() : 0, 1);
  out.insert(out.end(), dims.begin(), dims.end());
  return out;
}

}  // namespace backplane::onednn
