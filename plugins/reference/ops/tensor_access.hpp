// Typed access to a workload's tensors.
#pragma once

#include <backplane/backend/layer.hpp>
#include <backplane/backend/op_geometry.hpp>
#include <backplane/backend/workload.hpp>
#include <backplane/element_types.hpp>
#include <backplane/exception.hpp>
#include <backplane/types.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>

namespace backplane::reference {

// Host pointer to input/output `index` for this run (the handle's Map(); host handles map
// for free and need no Unmap).
template <typename T>
const T* Input(const backend::WorkloadArgs& args, std::size_t index) {
  return static_cast<const T*>(args.inputs[index]->Map());
}
template <typename T>
T* Output(const backend::WorkloadArgs& args, std::size_t index) {
  return static_cast<T*>(args.outputs[index]->Map());
}

// The layer's descriptor as its concrete type. Only after checking the layer's type: the
// runtime guarantees the descriptor of a layer of type D::kType is a D.
template <typename Descriptor>
const Descriptor& DescriptorOf(const backend::ILayerView& layer) {
  return static_cast<const Descriptor&>(*layer.GetDescriptor());
}

// A Workload<U> for U the unsigned integer of `element_size` bytes (1, 2, 4 or 8): for ops that
// move or compare elements without computing with them, one instance per size serves every type.
template <template <typename> class Workload, typename... Args>
std::unique_ptr<backend::IWorkload> MakeForElementSize(std::size_t element_size, Args&&... args) {
  switch (element_size) {
    case 1: return std::make_unique<Workload<std::uint8_t>>(std::forward<Args>(args)...);
    case 2: return std::make_unique<Workload<std::uint16_t>>(std::forward<Args>(args)...);
    case 4: return std::make_unique<Workload<std::uint32_t>>(std::forward<Args>(args)...);
    default: return std::make_unique<Workload<std::uint64_t>>(std::forward<Args>(args)...);
  }
}

// A Workload<T> for T the element type of `type` where Kind<T>::value (one of the kinds
// below). Throws Exception (kInternal) for another type (the op's support check refuses those
// first).
template <template <typename> class Kind, template <typename> class Workload, typename... Args>
std::unique_ptr<backend::IWorkload> MakeForKind(DataType type, Args&&... args) {
  return VisitElementType(type, [&](auto element) -> std::unique_ptr<backend::IWorkload> {
    using T = decltype(element);
    if constexpr (Kind<T>::value) {
      return std::make_unique<Workload<T>>(std::forward<Args>(args)...);
    } else {
      throw Exception(ErrorCode::kInternal, std::string("CpuRef has no kernel for ") + ToString(type) + " here");
    }
  });
}
template <typename T>
struct NumberKind : std::bool_constant<kIsNumberElement<T>> {};
template <typename T>
struct ArithmeticKind : std::bool_constant<kIsArithmeticElement<T>> {};
template <typename T>
struct FloatingPointKind : std::bool_constant<kIsFloatingPointElement<T>> {};

// For kernels written once over the number types (IsNumberType).
template <template <typename> class Workload, typename... Args>
std::unique_ptr<backend::IWorkload> MakeForNumberType(DataType type, Args&&... args) {
  return MakeForKind<NumberKind, Workload>(type, std::forward<Args>(args)...);
}

// For kernels over every type with arithmetic (IsArithmeticType: a number, Half or BFloat16)
// that compute in ComputeElement<T> and round each result once with ConvertElement.
template <template <typename> class Workload, typename... Args>
std::unique_ptr<backend::IWorkload> MakeForArithmeticType(DataType type, Args&&... args) {
  return MakeForKind<ArithmeticKind, Workload>(type, std::forward<Args>(args)...);
}

// For kernels over the floating-point types (IsFloatingPointType: float, double, Half, BFloat16).
template <template <typename> class Workload, typename... Args>
std::unique_ptr<backend::IWorkload> MakeForFloatingPointType(DataType type, Args&&... args) {
  return MakeForKind<FloatingPointKind, Workload>(type, std::forward<Args>(args)...);
}

// True for a number type; else false with `reason` "CpuRef's <op> takes numbers other than f16
// and bf16, not <type>".
inline bool TakesNumbers(const char* op, DataType type, std::string& reason) {
  if (IsNumberType(type)) return true;
  reason = std::string("CpuRef's ") + op + " takes numbers other than f16 and bf16, not " + ToString(type);
  return false;
}

// For the ops that read run-time indices (Gather, GatherElements): throws Exception
// (kInvalidArgument) unless `index` is in [-length, length), naming the op, the index, its
// position among the indices and `where` ("axis 1 of data [2,3] (layer 'g')").
inline void CheckIndex(const char* op, std::int64_t index, std::int64_t element, std::int64_t length,
                       const std::string& where) {
  if (index < -length || index >= length) {
    throw Exception(ErrorCode::kInvalidArgument, std::string(op) + " index " + std::to_string(index) + " (element " +
                                                     std::to_string(element) + " of the indices) is out of range [" +
                                                     std::to_string(-length) + ", " + std::to_string(length - 1) +
                                                     "] for " + where);
  }
}

// The SDK's axis normalization (backplane/backend/op_geometry.hpp), used unqualified.
using backend::NormalizeAxis;

}  // namespace backplane::reference
