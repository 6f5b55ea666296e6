// numpy (ONNX multidirectional) broadcasting and dense strides: shape arithmetic that every
// backend's elementwise, matrix and data-movement ops need, in one place. Pure functions;
// thread-safe.
#pragma once

#include <backplane/types.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace backplane::backend {

// The numpy broadcast of `a` and `b` (aligned at the last dimension; in each pair the sizes
// are equal or one is 1). False, with `reason` naming the clashing dimensions, when they do
// not broadcast.
bool BroadcastShapes(const TensorShape& a, const TensorShape& b, TensorShape& out, std::string& reason);

// True when `shape` broadcasts to exactly `target` (numpy's one-directional rule).
bool BroadcastsTo(const TensorShape& shape, const TensorShape& target);

// Row-major strides of a dense tensor of `shape`, in elements.
std::vector<std::int64_t> DenseStrides(const TensorShape& shape);

// Strides, in elements, that read a dense tensor of `shape` while walking the dimensions of
// `target`: one per dimension of `target`, 0 where `shape` lacks the dimension or has size 1.
// `shape` must broadcast to `target`.
std::vector<std::int64_t> BroadcastStrides(const TensorShape& shape, const TensorShape& target);

}  // namespace backplane::backend
