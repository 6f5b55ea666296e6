// Reduction: what each ReduceOperation computes over a set of values, in double: the one owner
// of the formulas that CpuRef's Reduce and the importer's constant folding share. Header-only;
// part of the author kit. Pure functions of their arguments; thread-safe.
//
// A reduction walks its values once (twice for kLogSumExp, which first finds the largest value
// so that exp never overflows: log(sum exp(x)) = m + log(sum exp(x - m))):
//   double acc = Start(op);                       // with NeedsShift(op): shift = the kMax of the set
//   for (x : values) acc = Add(op, acc, x, shift);
//   result = Finish(op, acc, count, shift);        // count: the number of values (kMean)
// ONNX's meaning, as its reference implementation computes it: kMax and kMin give NaN when
// any value is NaN; over an empty set kMean gives NaN, kMax -inf, kMin +inf, kProd 1, the
// sums 0, kLogSum and kLogSumExp -inf.
#pragma once

#include <backplane/descriptors.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

namespace backplane::backend::reduction {

inline bool NeedsShift(ReduceOperation op) { return op == ReduceOperation::kLogSumExp; }

inline double Start(ReduceOperation op) {
  switch (op) {
    case ReduceOperation::kMax: return -std::numeric_limits<double>::infinity();
    case ReduceOperation::kMin: return std::numeric_limits<double>::infinity();
    case ReduceOperation::kProd: return 1.0;
    default: return 0.0;
  }
}

inline double Add(ReduceOperation op, double acc, double x, double shift) {
  switch (op) {
    case ReduceOperation::kMax: return std::isnan(x) || x > acc ? x : acc;  // NaN, once in, stays
    case ReduceOperation::kMin: return std::isnan(x) || x < acc ? x : acc;
    case ReduceOperation::kProd: return acc * x;
    case ReduceOperation::kSumSquare:
    case ReduceOperation::kL2: return acc + x * x;
    case ReduceOperation::kL1: return acc + std::fabs(x);
    case ReduceOperation::kLogSumExp: return acc + std::exp(x - shift);
    default: return acc + x;  // kMean, kSum, kLogSum
  }
}

// `shift` as Add takes it for kLogSumExp: the set's largest value, or 0 when that is not finite
// (all -inf: the sum is 0 and the result -inf; +inf or NaN: the sum carries it).
inline double Shift(double max) { return std::isfinite(max) ? max : 0.0; }

inline double Finish(ReduceOperation op, double acc, std::int64_t count, double shift) {
  switch (op) {
    case ReduceOperation::kMean: return acc / static_cast<double>(count);
    case ReduceOperation::kL2: return std::sqrt(acc);
    case ReduceOperation::kLogSum: return std::log(acc);
    case ReduceOperation::kLogSumExp: return shift + std::log(acc);
    default: return acc;
  }
}

}  // namespace backplane::backend::reduction
