// The strided loop nest that the elementwise, reduction and
// data-movement ops walk their tensors with.
#pragma once

#include <backplane/backend/broadcast.hpp>
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

// A loop nest that walks N operands together over the same index space. Operand k advances
// by strides[k][d] elements along dimension d (0 to broadcast, negative to walk backwards).
// The constructor drops size-1 dimensions and merges neighbours that every operand walks as
// one, so equal shapes become one flat row and "x + per-channel bias" becomes rows of a
// scalar. Immutable after construction; ForEachRow is const and thread-safe.
template <std::size_t N>
class StridedLoop {
 public:
  using Offsets = std::array<std::int64_t, N>;

  StridedLoop() = default;
  StridedLoop(const std::vector<std::int64_t>& dims, const std::array<std::vector<std::int64_t>, N>& strides) {
    for (std::size_t d = 0; d < dims.size(); ++d) {
      if (dims[d] == 0) empty_ = true;
      if (dims[d] <= 1) continue;
      Offsets step{};
      for (std::size_t k = 0; k < N; ++k) step[k] = strides[k][d];
      if (!dims_.empty() && Mergeable(steps_.back(), step, dims[d])) {
        dims_.back() *= dims[d];
        steps_.back() = step;
      } else {
        dims_.push_back(dims[d]);
        steps_.push_back(step);
      }
    }
  }

  // The collapsed dimensions, outermost first (empty for a single element).
  const std::vector<std::int64_t>& Dims() const { return dims_; }

  // Calls row(offsets, length, steps) once per innermost row, in row-major order: operand k's
  // elements are at offsets[k] + i * steps[k] for i in [0, length). Nothing when any
  // dimension is 0.
  template <typename Row>
  void ForEachRow(Row&& row) const {
    if (empty_) return;
    Offsets offsets{};
    if (dims_.empty()) {
      row(offsets, std::int64_t{1}, Offsets{});
      return;
    }
    const std::size_t outer = dims_.size() - 1;
    const std::int64_t length = dims_.back();
    const Offsets& steps = steps_.back();
    std::vector<std::int64_t> index(outer, 0);
    for (;;) {
      row(offsets, length, steps);
      std::size_t d = outer;
      for (;;) {
        if (d == 0) return;
        --d;
        if (++index[d] < dims_[d]) {
          for (std::size_t k = 0; k < N; ++k) offsets[k] += steps_[d][k];
          break;
        }
        index[d] = 0;
        for (std::size_t k = 0; k < N; ++k) offsets[k] -= steps_[d][k] * (dims_[d] - 1);
      }
    }
  }

 private:
  static bool Mergeable(const Offsets& outer, const Offsets& inner, std::int64_t inner_dim) {
    for (std::size_t k = 0; k < N; ++k) {
      if (outer[k] != inner[k] * inner_dim) return false;
    }
    return true;
  }

  std::vector<std::int64_t> dims_;
  std::vector<Offsets> steps_;
  bool empty_ = false;
};

// Copies `count` elements of `element_size` bytes from src[i * src_step] to dst[i * dst_step]
// (steps in elements). One memcpy when both steps are 1.
void CopyElements(void* dst, std::int64_t dst_step, const void* src, std::int64_t src_step, std::int64_t count,
                  std::size_t element_size);

}  // namespace backplane::reference
