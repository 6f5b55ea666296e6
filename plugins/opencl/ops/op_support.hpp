// The support checks the GpuOpenCl op table's rows share, and the shape and axis helpers of its
// ops. The table runs the SDK's op schema (backplane/backend/op_schema.hpp) and its f32 check
// before a row's check, so the checks test only the kernels' own limits.
#pragma once

#include <backplane/backend/broadcast.hpp>
#include <backplane/backend/layer.hpp>
#include <backplane/backend/op_geometry.hpp>
#include <backplane/types.hpp>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace backplane::opencl {

// Most dimensions the strided kernels (elementwise, transpose, slice, pad, reduce) walk.
inline constexpr std::size_t kMaxKernelRank = 8;

// The layer's descriptor as its concrete type; only after checking GetType().
template <typename Descriptor>
const Descriptor& DescriptorOf(const backend::ILayerView& layer) {
  return static_cast<const Descriptor&>(*layer.GetDescriptor());
}

// The SDK's axis normalization (backplane/backend/op_geometry.hpp), used unqualified.
using backend::NormalizeAxis;

// Sets the support check's plain `why` to `what` (the op table prefixes the backend and the
// layer's name); always returns false.
bool Fail(std::string& why, std::string what);

// The SDK's shape arithmetic (backplane/backend/broadcast.hpp), used unqualified by the ops.
using backend::BroadcastStrides;
using backend::DenseStrides;

// False with a reason when `shape` has more than kMaxKernelRank dimensions or more than 2^31-1
// elements (the kernels index with 32-bit integers).
bool FitsKernelIndexing(const TensorShape& shape, std::string& reason);
// FitsKernelIndexing for each of `shapes`, the first that does not fit giving the reason.
bool AllFitKernelIndexing(std::initializer_list<TensorShape> shapes, std::string& reason);

// The support check of the ops whose kernels index at most input 0's index space:
// FitsKernelIndexing of input 0's shape.
bool InputFitsKernelIndexing(const backend::ILayerView& layer, std::string& reason);

}  // namespace backplane::opencl
