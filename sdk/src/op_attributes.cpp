#include <backplane/backend/op_attributes.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace backplane::backend {

namespace {

// ---- Runtime side: descriptor -> C --------------------------------------------------------

template <typename Struct>
constexpr std::uint32_t Size() {
  return static_cast<std::uint32_t>(sizeof(Struct));
}
std::uint32_t AsFlag(bool value) { return value ? 1u : 0u; }
template <typename T>
const T* Data(const std::vector<T>& values) {
  return values.empty() ? nullptr : values.data();
}
template <typename Descriptor>
const Descriptor& As(LayerType type, const LayerDescriptor* descriptor) {
  const auto* typed = dynamic_cast<const Descriptor*>(descriptor);
  if (typed == nullptr) {
    throw Exception(ErrorCode::kInternal, std::string("a ") + ToString(type) +
                                              " layer's descriptor is not of the type its layer type names");
  }
  return *typed;
}

// ---- Plugin side: C -> descriptor ---------------------------------------------------------

// "Convolution2d", or "layer type 42" for a value outside op set v1.
std::string TypeName(std::uint32_t type) {
  if (type < kBpLayerTypeCount) return ToString(static_cast<LayerType>(type));
  return "layer type " + std::to_string(type);
}

[[noreturn]] void Fail(std::uint32_t type, const std::string& what) {
  throw Exception(ErrorCode::kInvalidArgument, TypeName(type) + " attributes: " + what);
}

// `attributes` as the struct `type` names, checked for null and size.
template <typename Struct>
const Struct& Read(std::uint32_t type, const void* attributes, const char* struct_name) {
  if (attributes == nullptr) {
    throw Exception(ErrorCode::kInvalidArgument,
                    TypeName(type) + " layer without attributes (" + struct_name + " expected)");
  }
  const auto& typed = *static_cast<const Struct*>(attributes);
  if (typed.struct_size < sizeof(Struct)) {
    Fail(type, std::string(struct_name) + " struct_size " + std::to_string(typed.struct_size) + " is below " +
                   std::to_string(sizeof(Struct)));
  }
  return typed;
}

template <typename T>
std::vector<T> Array(std::uint32_t type, const T* data, std::size_t count, const char* field) {
  if (count > 0 && data == nullptr) Fail(type, std::string(field) + " has " + std::to_string(count) + " entries but is null");
  return count > 0 ? std::vector<T>(data, data + count) : std::vector<T>();
}

bool Bool(std::uint32_t type, std::uint32_t value, const char* field) {
  if (value > 1) Fail(type, std::string(field) + " is " + std::to_string(value) + ", not 0 or 1");
  return value == 1;
}

template <typename Enum>
Enum Enumerator(std::uint32_t type, std::uint32_t value, std::uint32_t count, const char* field) {
  if (value >= count) Fail(type, "unknown " + std::string(field) + " " + std::to_string(value));
  return static_cast<Enum>(value);
}

template <std::size_t N>
void CopyArray(std::array<std::uint32_t, N>& to, const std::uint32_t (&from)[N]) {
  for (std::size_t i = 0; i < N; ++i) to[i] = from[i];
}

// The C counts of one layer's lists as Set writes them. A count that several lists share (Slice's
// starts and ends share `count`) must get the same size from each: else Set throws
// (kInvalidArgument) naming both lists. Lives for one Set call.
class ListCounts {
 public:
  explicit ListCounts(LayerType type) : type_(type) {}

  void Set(std::size_t& count, std::size_t size, const char* list) {
    for (std::size_t i = 0; i < written_count_; ++i) {
      const Written& earlier = written_[i];
      if (earlier.count == &count && count != size) {
        throw Exception(ErrorCode::kInvalidArgument, std::string(ToString(type_)) + " descriptor has " +
                                                         std::to_string(count) + " " + earlier.list + " but " +
                                                         std::to_string(size) + " " + list +
                                                         "; the counts must be equal");
      }
    }
    count = size;
    if (written_count_ == written_.size()) {
      throw Exception(ErrorCode::kInternal, std::string(ToString(type_)) + " has more lists than ListCounts holds");
    }
    written_[written_count_++] = Written{&count, list};
  }

 private:
  struct Written {
    const std::size_t* count = nullptr;
    const char* list = nullptr;
  };
  LayerType type_;
  std::array<Written, 8> written_{};
  std::size_t written_count_ = 0;
};

}  // namespace

// ---- The C structs hold what op_attributes.def lists ----------------------------------------
// For each op, at compile time: every listed field (and list count) is in Bp<Name>Attributes with
// the listed type; the fields follow in the listed order; and nothing follows the last of them
// (a C field missing from the list fails here unless it hides in the struct's tail padding).
namespace op_attributes_layout {

struct Field {
  std::size_t offset;
  std::size_t size;
  bool list_count;  // a list's count: its place is the C header's (shared counts come once)
};

template <std::size_t N>
constexpr bool InListedOrder(const Field (&fields)[N]) {
  std::size_t previous = 0;
  for (const Field& field : fields) {
    if (field.list_count) continue;
    if (field.offset < previous) return false;
    previous = field.offset;
  }
  return true;
}

template <std::size_t N>
constexpr std::size_t EndOfFields(const Field (&fields)[N], std::size_t alignment) {
  std::size_t end = 0;
  for (const Field& field : fields) end = field.offset + field.size > end ? field.offset + field.size : end;
  return (end + alignment - 1) / alignment * alignment;
}

#define BP_OP_BEGIN(Name)                \
  namespace Name {                       \
  using C = Bp##Name##Attributes;        \
  static_assert(std::is_same_v<decltype(C::struct_size), std::uint32_t>, "struct_size");
#define BP_ATTR_VALUE(field, value_type, default_value) \
  static_assert(std::is_same_v<decltype(C::field), value_type>, #field ": not " #value_type " in the C struct");
#define BP_ATTR_FLAG(field, default_value) \
  static_assert(std::is_same_v<decltype(C::field), std::uint32_t>, #field ": a flag is uint32_t in the C struct");
#define BP_ATTR_ENUM(field, Enum, default_value) \
  static_assert(std::is_same_v<decltype(C::field), std::uint32_t>, #field ": an enum is uint32_t in the C struct");
#define BP_ATTR_ARRAY(field, count, defaults)                                  \
  static_assert(std::is_same_v<decltype(C::field), std::uint32_t[count]>, \
                #field ": not uint32_t[" #count "] in the C struct");
#define BP_ATTR_LIST(field, element, c_count)                                              \
  static_assert(std::is_same_v<decltype(C::field), const element*>, #field ": not const " #element "*"); \
  static_assert(std::is_same_v<decltype(C::c_count), std::size_t>, #c_count ": not size_t");
#define BP_OP_END(Name) }
#include <backplane/backend/op_attributes.def>

#define BP_OP_BEGIN(Name) \
  namespace Name {        \
  constexpr Field kFields[] = {{offsetof(C, struct_size), sizeof(C::struct_size), false}
#define BP_ATTR_VALUE(field, value_type, default_value) , {offsetof(C, field), sizeof(C::field), false}
#define BP_ATTR_FLAG(field, default_value) , {offsetof(C, field), sizeof(C::field), false}
#define BP_ATTR_ENUM(field, Enum, default_value) , {offsetof(C, field), sizeof(C::field), false}
#define BP_ATTR_ARRAY(field, count, defaults) , {offsetof(C, field), sizeof(C::field), false}
#define BP_ATTR_LIST(field, element, c_count) \
  , {offsetof(C, field), sizeof(C::field), false}, {offsetof(C, c_count), sizeof(C::c_count), true}
#define BP_OP_END(Name)                                                                      \
  }                                                                                          \
  ;                                                                                          \
  static_assert(InListedOrder(kFields), "Bp" #Name "Attributes: fields not in the listed order"); \
  static_assert(EndOfFields(kFields, alignof(C)) == sizeof(C),                                 \
                "Bp" #Name "Attributes has a field that op_attributes.def does not list");       \
  }
#include <backplane/backend/op_attributes.def>

}  // namespace op_attributes_layout

TensorInfo TensorInfoFromC(const BpTensorInfo& info, std::string_view what) {
  const std::string where(what);
  if (info.struct_size < sizeof(BpTensorInfo)) {
    throw Exception(ErrorCode::kInvalidArgument, where + ": BpTensorInfo struct_size " +
                                                     std::to_string(info.struct_size) + " is below " +
                                                     std::to_string(sizeof(BpTensorInfo)));
  }
  if (info.data_type >= kBpDataTypeCount) {
    throw Exception(ErrorCode::kInvalidArgument,
                    where + ": unknown data type " + std::to_string(info.data_type));
  }
  if (info.rank > 0 && info.dims == nullptr) {
    throw Exception(ErrorCode::kInvalidArgument,
                    where + ": rank " + std::to_string(info.rank) + " with null dims");
  }
  TensorInfo result;
  result.type = static_cast<DataType>(info.data_type);
  if (info.rank > 0) result.shape = TensorShape(std::vector<std::int64_t>(info.dims, info.dims + info.rank));
  return result;
}

PreCompiledPayload::~PreCompiledPayload() {
  if (destroy) destroy(payload);
}

const void* CAttributes::Set(LayerType type, const LayerDescriptor* descriptor) {
  if (descriptor == nullptr) return nullptr;
  switch (type) {
    case LayerType::kInput:
    case LayerType::kOutput:
    case LayerType::kMatMul:
    case LayerType::kWhere:
    case LayerType::kMatMulInteger:
    case LayerType::kNonZero:
    case LayerType::kDet:
    case LayerType::kCount:
      return nullptr;
    case LayerType::kConstant: {
      const auto& d = As<ConstantDescriptor>(type, descriptor);
      storage_.constant = BpConstantAttributes{Size<BpConstantAttributes>(), CTensorInfo(d.info),
                                               d.data && !d.data->empty() ? d.data->data() : nullptr};
      return &storage_.constant;
    }
#define BP_OP_BEGIN(Name)                                          \
  case LayerType::k##Name: {                                       \
    const auto& d = As<Name##Descriptor>(type, descriptor);        \
    auto& a = storage_.Name = Bp##Name##Attributes{};              \
    a.struct_size = Size<Bp##Name##Attributes>();                  \
    [[maybe_unused]] ListCounts counts(type);
#define BP_ATTR_VALUE(field, value_type, default_value) a.field = d.field;
#define BP_ATTR_FLAG(field, default_value) a.field = AsFlag(d.field);
#define BP_ATTR_ENUM(field, Enum, default_value) a.field = static_cast<std::uint32_t>(d.field);
#define BP_ATTR_ARRAY(field, count, defaults) \
  for (std::size_t i = 0; i < (count); ++i) a.field[i] = d.field[i];
#define BP_ATTR_LIST(field, element, c_count) \
  a.field = Data(d.field);                    \
  counts.Set(a.c_count, d.field.size(), #field);
#define BP_OP_END(Name) \
  return &a;            \
  }
#include <backplane/backend/op_attributes.def>
    case LayerType::kPreCompiled: {
      const auto& d = As<PreCompiledPayload>(type, descriptor);
      storage_.pre_compiled = BpPreCompiledAttributes{Size<BpPreCompiledAttributes>(), d.payload};
      return &storage_.pre_compiled;
    }
  }
  throw Exception(ErrorCode::kInternal,
                  "layer type " + std::to_string(static_cast<std::uint32_t>(type)) + " has no C attributes");
}

std::unique_ptr<LayerDescriptor> DescriptorFromC(std::uint32_t type, const void* attributes) {
  switch (type) {
    case BP_LAYER_INPUT:
    case BP_LAYER_OUTPUT:
      return nullptr;
    case BP_LAYER_MAT_MUL:  // no attributes, but every op of op set v1 has a descriptor
      return std::make_unique<MatMulDescriptor>();
    case BP_LAYER_WHERE:
      return std::make_unique<WhereDescriptor>();
    case BP_LAYER_MAT_MUL_INTEGER:
      return std::make_unique<MatMulIntegerDescriptor>();
    case BP_LAYER_NON_ZERO:
      return std::make_unique<NonZeroDescriptor>();
    case BP_LAYER_DET:
      return std::make_unique<DetDescriptor>();
    case BP_LAYER_CONSTANT: {
      const auto& a = Read<BpConstantAttributes>(type, attributes, "BpConstantAttributes");
      auto d = std::make_unique<ConstantDescriptor>();
      d->info = TensorInfoFromC(a.info, TypeName(type) + " attributes: info");
      const std::uint64_t bytes = CheckedNumBytes(d->info.shape.Dims(), d->info.type, TypeName(type) + " attributes");
      if (bytes > 0 && a.data == nullptr) Fail(type, "data is null for " + std::to_string(bytes) + " bytes");
      const auto* begin = static_cast<const std::uint8_t*>(a.data);
      d->data = std::make_shared<const std::vector<std::uint8_t>>(begin, begin + static_cast<std::size_t>(bytes));
      return d;
    }
#define BP_OP_BEGIN(Name)                                                               \
  case static_cast<std::uint32_t>(LayerType::k##Name): {                                \
    const auto& a = Read<Bp##Name##Attributes>(type, attributes, "Bp" #Name "Attributes"); \
    auto d = std::make_unique<Name##Descriptor>();
#define BP_ATTR_VALUE(field, value_type, default_value) d->field = a.field;
#define BP_ATTR_FLAG(field, default_value) d->field = Bool(type, a.field, #field);
#define BP_ATTR_ENUM(field, Enum, default_value) \
  d->field = Enumerator<Enum>(type, a.field, BpEnum<Enum>::kCount, BpEnum<Enum>::kWhat);
#define BP_ATTR_ARRAY(field, count, defaults) CopyArray(d->field, a.field);
#define BP_ATTR_LIST(field, element, c_count) d->field = Array(type, a.field, a.c_count, #field);
#define BP_OP_END(Name) \
  return d;             \
  }
#include <backplane/backend/op_attributes.def>
    case BP_LAYER_PRE_COMPILED:
      throw Exception(ErrorCode::kInvalidArgument,
                      "PreCompiled attributes carry a backend's payload, not op set v1 attributes; "
                      "the plugin adapter reads them");
    default:
      break;
  }
  throw Exception(ErrorCode::kInvalidArgument, "unknown " + TypeName(type) + " (the op set has " +
                                                   std::to_string(kBpLayerTypeCount) + " layer types)");
}

}  // namespace backplane::backend
