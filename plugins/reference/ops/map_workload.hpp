// A workload that applies one function to every element, T -> T (f32 unless told): the form of
// every activation and elementwise unary op.
#pragma once

#include "tensor_access.hpp"

#include <cstdint>
#include <memory>

namespace backplane::reference {

// Immutable; Execute is thread-safe when `Function` is (the ops pass plain lambdas).
template <typename Function, typename T = float>
class MapWorkload final : public backend::IWorkload {
 public:
  MapWorkload(std::int64_t count, Function function) : count_(count), function_(function) {}

  void Execute(const backend::WorkloadArgs& args) const override {
    const T* x = Input<T>(args, 0);
    T* y = Output<T>(args, 0);
    for (std::int64_t i = 0; i < count_; ++i) y[i] = function_(x[i]);
  }

 private:
  std::int64_t count_;
  Function function_;
};

template <typename T = float, typename Function>
std::unique_ptr<backend::IWorkload> MakeMapWorkload(std::int64_t count, Function function) {
  return std::make_unique<MapWorkload<Function, T>>(count, function);
}

// y = f(x) over elements of T with f computing in ComputeElement<T> (float for f16 and bf16):
// each result is rounded once to T (ConvertElement); for f32, f64 and integers a plain map.
template <typename T, typename Function>
std::unique_ptr<backend::IWorkload> MakeComputedMapWorkload(std::int64_t count, Function function) {
  return MakeMapWorkload<T>(count, [function](T x) {
    return ConvertElement<T>(function(ConvertElement<ComputeElement<T>>(x)));
  });
}

}  // namespace backplane::reference
