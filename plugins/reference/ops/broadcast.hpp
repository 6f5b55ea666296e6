// The strided loop nest that the elementwise, reduction and
// data-movement ops walk their tensors with.
#pragma once

#include <backplane/backend/broadcast.hpp>
#include <backplane/backend/strided_loop.hpp>
#include <backplane/types.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace backplane::reference {

// The SDK's shape arithmetic (backplane/backend/broadcast.hpp), used unqualified by the ops.
using backend::BroadcastShapes;
using backend::BroadcastStrides;
using backend::BroadcastsTo;
using backend::DenseStrides;
using backend::StridedLoop;

// Copies `count` elements of `element_size` bytes from src[i * src_step] to dst[i * dst_step]
// (steps in elements). One memcpy when both steps are 1.
void CopyElements(void* dst, std::int64_t dst_step, const void* src, std::int64_t src_step, std::int64_t count,
                  std::size_t element_size);

}  // namespace backplane::reference
