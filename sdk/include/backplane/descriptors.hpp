// Op set v1: one descriptor per layer type, with the parameters of that op. The descriptors of
// ops with attributes and their enumerations come from backplane/backend/op_attributes.def.
//
// Every descriptor derives from LayerDescriptor and names its LayerType in kType, so
// Network::AddLayer knows the type and a backend can static_cast a layer's descriptor after
// checking ILayerView::GetType(). Plain value types; thread-safe to read. Layout is NCHW.
//
// Inputs are tensors connected to the layer's input slots, in the order listed per op; weights
// and other parameters that are tensors come in as inputs too (usually from Constant layers),
// so a backend sees them through ILayerView::GetConstantInput at CreateWorkload time.
#pragma once

#include <backplane/backend/layer.hpp>
#include <backplane/types.hpp>

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace backplane {

using backend::LayerDescriptor;
using backend::LayerType;

// The enumerations and the descriptors of the ops whose attributes cross the plugin boundary
// as plain fields: expanded from their one description, backplane/backend/op_attributes.def
// (read it for each field's meaning and default).
#define BACKPLANE_DETAIL_UNPARENTHESIZED(...) __VA_ARGS__
#define BP_ENUM_BEGIN(Enum, what) enum class Enum : std::uint32_t {
#define BP_ENUMERATOR(Enum, name, c_value) name,
#define BP_ENUM_END(Enum, last_c_value) };
#define BP_OP_BEGIN(Name)                      \
  struct Name##Descriptor final : LayerDescriptor { \
    static constexpr LayerType kType = LayerType::k##Name;
#define BP_ATTR_VALUE(field, type, default_value) type field = default_value;
#define BP_ATTR_FLAG(field, default_value) bool field = default_value;
#define BP_ATTR_ENUM(field, Enum, default_value) Enum field = default_value;
#define BP_ATTR_ARRAY(field, count, defaults) \
  std::array<std::uint32_t, count> field{BACKPLANE_DETAIL_UNPARENTHESIZED defaults};
#define BP_ATTR_LIST(field, element, c_count) std::vector<element> field;
#define BP_OP_END(Name) };
#include <backplane/backend/op_attributes.def>
#undef BACKPLANE_DETAIL_UNPARENTHESIZED

// numpy.matmul: inputs A [..., M, K], B [..., K, N]; batch dimensions broadcast; rank-1
// operands are promoted as numpy does. No attributes.
struct MatMulDescriptor final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kMatMul;
};

// numpy.matmul(a - a_zero_point, b - b_zero_point) in exact i32 (op set v2, ONNX MatMulInteger):
// inputs A [..., M, K] and B [..., K, N], i8 or u8 each; optional a_zero_point (A's type, one value
// or per row: broadcasting to A with 1 along K, e.g. [M, 1]) and b_zero_point (B's type, one value
// or per column: broadcasting to B with 1 along K, e.g. [N]); B's zero point needs A's (0 when
// the model has none). Output i32, MatMul's shape. No attributes.
struct MatMulIntegerDescriptor final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kMatMulInteger;
};

// The determinant of each square matrix of input 0 [..., M, M] (floating-point; op set v2, ONNX
// Det): output [...] of its type. No attributes.
struct DetDescriptor final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kDet;
};

// numpy.where(cond, x, y) (op set v2): inputs cond (bool), x and y (one type), broadcast
// together; the output has x's type. No attributes.
struct WhereDescriptor final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kWhere;
};

// ONNX NonZero (op set v2, Backend API 2.6): input x (numbers or bool, rank 1 or more); outputs
// the i64 indices [rank, numel] of the non-zero elements in C order, of which the first `count`
// columns are valid, and count (i64 [1]). No attributes.
struct NonZeroDescriptor final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kNonZero;
};

// A constant tensor (weights, shapes). The data is shared and immutable.
struct ConstantDescriptor final : LayerDescriptor {
  static constexpr LayerType kType = LayerType::kConstant;
  TensorInfo info;
  std::shared_ptr<const std::vector<std::uint8_t>> data;  // info.NumBytes() bytes
};

}  // namespace backplane
