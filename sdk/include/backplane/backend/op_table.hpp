// A backend's op table: one row per layer type it runs, and the one place that decides whether a
// backend runs a layer and how a refusal reads. A backend writes its rows and its per-op checks;
// its layer support (OpTableLayerSupport) and its workload factory (OpTable::SupportingOrThrow,
// then the row's create) only consult the table, so adding an op is one row.
//
// A row is any struct with
//   backend::LayerType type;
//   bool (*is_supported)(const ILayerView& layer, std::string& why);  // never null
// and whatever else the backend needs (typically `create`, whose signature is the backend's own).
//
// Every refusal a backend reports reads "<backend> cannot run layer '<name>': <why>"
// (CannotRunReason). A `why` is the plain "what is wrong" ("input 0 is f16; CpuRef runs Softmax
// on f32 only"): no backend, layer name or type prefix, which CannotRunReason adds once.
#pragma once

#include <backplane/backend/layer.hpp>
#include <backplane/backend/layer_support.hpp>
#include <backplane/exception.hpp>

#include <array>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace backplane::backend {

// "<backend> cannot run layer '<name>': <why>", the one format of a backend's refusal (layer
// support reasons and kUnsupported workload-factory errors alike). Thread-safe; throws only
// std::bad_alloc.
std::string CannotRunReason(std::string_view backend, const ILayerView& layer, std::string_view why);

// True when the layer carries a descriptor (every op of op set v1 has one), else false with
// `why` = "the layer has no descriptor". Thread-safe; never throws but std::bad_alloc.
bool HasDescriptor(const ILayerView& layer, std::string& why);

// A support check: true when the layer passes, else false with the plain `why`. May throw; the
// table turns an exception into a refusal.
using LayerCheck = bool (*)(const ILayerView& layer, std::string& why);

// The row check of an op that has no limits of its own (a kernel that moves bytes of any type
// and shape): always true, so the row runs every layer op set v1 and the backend-wide check
// accept. Thread-safe; never throws.
inline bool NoOwnLimits(const ILayerView&, std::string&) { return true; }

// True when inputs [0, count) of `layer` are all f32 (`count` past its inputs counts those it
// has), else false with the plain why naming the first that is not: "input 1 is i64; <backend>
// runs MatMul on f32 only". The one f32 rule of the backends whose kernels take f32 (GpuOpenCl's
// Gather passes 1: its indices may be i32 or i64). Thread-safe; never throws but std::bad_alloc.
bool InputsAreFloat32(std::string_view backend, const ILayerView& layer, std::size_t count, std::string& why);

// The row check of an op a backend runs on f32 only: InputsAreFloat32 over every input, naming
// the backend by its name constant (`AllFloat32<kReferenceBackendId>` in CpuRef's table).
// Thread-safe; never throws but std::bad_alloc.
template <const char* const& kBackend>
bool AllFloat32(const ILayerView& layer, std::string& why) {
  return InputsAreFloat32(kBackend, layer, layer.GetNumInputs(), why);
}

// Whether a table row runs `layer`, the rule every table applies, in order: a row exists
// (`row_check` non-null; else why = "it has no kernel for <Type> layers"), the layer has a
// descriptor, it keeps op set v1's rules (CheckLayer, backplane/backend/op_schema.hpp; so the
// per-op checks need test only the backend's own limits), `backend_check` (when non-null)
// accepts it, then `row_check` accepts it. An
// exception from a check becomes false with why = "its support check failed: <what>"; a check
// that refuses without a reason gets one naming the layer type. Thread-safe as the checks are.
bool RowAccepts(const ILayerView& layer, LayerCheck backend_check, LayerCheck row_check, std::string& why);

// The rows of one backend, looked up by layer type. Holds a view of `rows` (a static array that
// outlives the table) and the backend's name; immutable, so thread-safe.
template <typename Row>
class OpTable {
 public:
  // `backend`: the name every refusal starts with ("CpuRef"); must outlive the table (a string
  // literal or constant). `backend_check`: checks every layer passes before its row's own (e.g.
  // GpuOpenCl's f32-only rule); null for none.
  template <std::size_t N>
  OpTable(std::string_view backend, const std::array<Row, N>& rows, LayerCheck backend_check = nullptr)
      : backend_(backend), rows_(rows.data()), size_(N), backend_check_(backend_check) {}

  std::string_view Backend() const { return backend_; }

  // The row for `type`, or null when the table has none.
  const Row* Find(LayerType type) const {
    for (std::size_t i = 0; i < size_; ++i) {
      if (rows_[i].type == type) return &rows_[i];
    }
    return nullptr;
  }

  // The layer types of the table, in table order (what the backend reports as its capabilities).
  std::vector<LayerType> LayerTypes() const {
    std::vector<LayerType> types;
    types.reserve(size_);
    for (std::size_t i = 0; i < size_; ++i) types.push_back(rows_[i].type);
    return types;
  }

  // The row that runs `layer` (see RowAccepts), or null with the plain `why`. Never throws but
  // std::bad_alloc.
  const Row* Supporting(const ILayerView& layer, std::string& why) const {
    const Row* row = Find(layer.GetType());
    return RowAccepts(layer, backend_check_, row ? row->is_supported : nullptr, why) ? row : nullptr;
  }

  // The row that runs `layer`; a workload factory calls it, then the row's create. Throws
  // backplane::Exception(kUnsupported, CannotRunReason(backend, layer, why)) when there is none.
  const Row& SupportingOrThrow(const ILayerView& layer) const {
    std::string why;
    if (const Row* row = Supporting(layer, why)) return *row;
    throw Exception(ErrorCode::kUnsupported, CannotRunReason(backend_, layer, why));
  }

 private:
  std::string_view backend_;
  const Row* rows_;
  std::size_t size_;
  LayerCheck backend_check_;
};

// A backend's layer support: the table's answer, refusals as CannotRunReason. Holds a reference
// to `table` (a static that outlives it); thread-safe; never throws but std::bad_alloc.
template <typename Row>
class OpTableLayerSupport final : public ILayerSupport {
 public:
  explicit OpTableLayerSupport(const OpTable<Row>& table) : table_(table) {}

  bool IsLayerSupported(const ILayerView& layer, std::string* reason) const override {
    std::string why;
    if (table_.Supporting(layer, why)) return true;
    if (reason) *reason = CannotRunReason(table_.Backend(), layer, why);
    return false;
  }

 private:
  const OpTable<Row>& table_;
};

}  // namespace backplane::backend
