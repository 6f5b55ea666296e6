// StridedLoop: the loop nest a CPU backend walks broadcast, transposed or sliced tensors with
// (CpuRef's elementwise, reduction and data-movement ops; CpuOneDnn's broadcasts that oneDNN
// has only a reference kernel for). Header-only; part of the author kit.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace backplane::backend {

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

  // How many innermost rows ForEachRow visits (0 when any dimension is 0).
  std::int64_t RowCount() const {
    if (empty_) return 0;
    std::int64_t rows = 1;
    for (std::size_t d = 0; d + 1 < dims_.size(); ++d) rows *= dims_[d];
    return rows;
  }

  // Calls row(offsets, length, steps) once per innermost row, in row-major order: operand k's
  // elements are at offsets[k] + i * steps[k] for i in [0, length). Nothing when any
  // dimension is 0.
  template <typename Row>
  void ForEachRow(Row&& row) const {
    ForEachRowIn(0, RowCount(), row);
  }

  // ForEachRow for rows [first, last) only: disjoint ranges may run on different threads.
  template <typename Row>
  void ForEachRowIn(std::int64_t first, std::int64_t last, Row&& row) const {
    if (empty_ || first >= last) return;
    Offsets offsets{};
    if (dims_.empty()) {
      row(offsets, std::int64_t{1}, Offsets{});
      return;
    }
    const std::size_t outer = dims_.size() - 1;
    const std::int64_t length = dims_.back();
    const Offsets& steps = steps_.back();
    std::vector<std::int64_t> index(outer, 0);
    for (std::size_t d = outer, rest = static_cast<std::size_t>(first); d-- > 0;) {
      index[d] = static_cast<std::int64_t>(rest % static_cast<std::size_t>(dims_[d]));
      rest /= static_cast<std::size_t>(dims_[d]);
      for (std::size_t k = 0; k < N; ++k) offsets[k] += steps_[d][k] * index[d];
    }
    for (std::int64_t visited = first;;) {
      row(offsets, length, steps);
      if (++visited == last) return;
      std::size_t d = outer;
      for (;;) {
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

}  // namespace backplane::backend
