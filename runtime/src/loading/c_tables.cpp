#include "loading/c_tables.hpp"

#include "platform/message_text.hpp"

#include <backplane/backend/c_status.hpp>

#include <initializer_list>
#include <utility>

namespace backplane::loading {

namespace {

// One required function: its name and whether the plugin's table has it.
using Requirement = std::pair<const char*, bool>;

// Throws PluginError naming every required function `object` lacks.
void Require(const PluginOrigin& origin, const char* object, bool has_table,
             std::initializer_list<Requirement> required) {
  if (!has_table) {
    throw PluginError(ErrorCode::kBackendFailure,
                      "backend " + origin.id.Get() + " returned a " + object + " without a function table");
  }
  std::string missing;
  for (const auto& [name, present] : required) {
    if (!present) missing += (missing.empty() ? "" : ", ") + std::string(name);
  }
  if (!missing.empty()) {
    throw PluginError(ErrorCode::kBackendFailure, "backend " + origin.id.Get() + " returned a " + object +
                                                      " whose table lacks the required function" +
                                                      (missing.find(',') == std::string::npos ? " " : "s ") +
                                                      missing);
  }
}

// Copies function `fn` of table `t` (type `Type`) into `out` when the plugin has it.
#define BP_RUNTIME_READ(out, t, Type, fn) (out).fn = BP_HAS_FUNCTION(t, Type, fn) ? (t)->fn : nullptr

template <typename Table>
Table Empty() {
  Table table{};
  table.struct_size = sizeof(Table);
  return table;
}

}  // namespace

std::string DescribeCall(const PluginOrigin& origin, std::string_view function, std::string_view layer) {
  return DescribeCall(origin.id, function, layer);
}

std::uint32_t StatusCode(const BpStatus* status) {
  return BP_HAS_FIELD(status, BpStatus, code) ? status->code : 0u;
}

namespace {
// The message of `status` (owned), bounded to `max` bytes with control characters escaped: the
// text is the plugin's and ends up in logs and reports.
std::string TakeMessage(BpStatus* status, std::size_t max) {
  backend::StatusPtr owned(status);
  std::string message = BP_HAS_FIELD(status, BpStatus, message) ? backend::MessageOf(status) : std::string();
  if (message.empty()) return "(no message)";
  return platform::Bounded(message, max);
}
}  // namespace

std::string TakeReason(BpStatus* status) { return TakeMessage(status, 1024); }

void CheckStatus(BpStatus* status, const PluginOrigin& origin, std::string_view function, std::string_view layer) {
  if (status == nullptr) return;
  const std::uint32_t code = StatusCode(status);
  std::string message = TakeMessage(status, kMaxMessageBytes);
  throw PluginError(backend::ErrorCodeOf(code), DescribeCall(origin, function, layer) + ": " + message);
}

std::string FromC(BpString text, std::size_t max_bytes, const PluginOrigin& origin, std::string_view function,
                  std::string_view layer) {
  if (text.data == nullptr) return {};
  if (text.size > max_bytes) {
    throw PluginError(ErrorCode::kBackendFailure,
                      DescribeCall(origin, function, layer) + ": returned a string of " + std::to_string(text.size) +
                          " bytes; the runtime accepts at most " + std::to_string(max_bytes));
  }
  return std::string(text.data, text.size);
}

std::size_t CheckedCount(std::size_t count, std::size_t max, const PluginOrigin& origin, std::string_view function,
                         std::string_view what) {
  if (count > max) {
    throw PluginError(ErrorCode::kBackendFailure, DescribeCall(origin, function) + ": " + std::string(what) +
                                                      " has " + std::to_string(count) +
                                                      " entries; the runtime accepts at most " + std::to_string(max));
  }
  return count;
}

std::string BoundedMessage(const char* text) {
  if (text == nullptr) return {};
  std::size_t length = 0;
  while (length < kMaxMessageBytes && text[length] != '\0') ++length;  // never past its NUL
  std::string message = platform::Bounded(std::string_view(text, length), kMaxMessageBytes);
  if (text[length] != '\0') message += "\xE2\x80\xA6 (more than " + std::to_string(kMaxMessageBytes) + " bytes)";
  return message;
}

BpBackendTable ReadTable(const BpBackend* object, const PluginOrigin& origin) {
  auto out = Empty<BpBackendTable>();
  const BpBackendTable* t = object ? object->table : nullptr;
  if (t) {
    BP_RUNTIME_READ(out, t, BpBackendTable, destroy);
    BP_RUNTIME_READ(out, t, BpBackendTable, get_id);
    BP_RUNTIME_READ(out, t, BpBackendTable, get_info);
    BP_RUNTIME_READ(out, t, BpBackendTable, create_backend_context);
    BP_RUNTIME_READ(out, t, BpBackendTable, check_available);
    BP_RUNTIME_READ(out, t, BpBackendTable, create_layer_support);
    BP_RUNTIME_READ(out, t, BpBackendTable, optimize_subgraph);
    BP_RUNTIME_READ(out, t, BpBackendTable, create_memory_manager);
    BP_RUNTIME_READ(out, t, BpBackendTable, create_workload_factory);
    BP_RUNTIME_READ(out, t, BpBackendTable, register_tensor_handle_factories);
  }
  Require(origin, "BpBackend", t != nullptr,
          {{"destroy", out.destroy != nullptr},
           {"get_id", out.get_id != nullptr},
           {"get_info", out.get_info != nullptr},
           {"create_layer_support", out.create_layer_support != nullptr},
           {"create_workload_factory", out.create_workload_factory != nullptr}});
  return out;
}

BpBackendInfoTable ReadTable(const BpBackendInfo* object, const PluginOrigin& origin) {
  auto out = Empty<BpBackendInfoTable>();
  const BpBackendInfoTable* t = object ? object->table : nullptr;
  if (t) {
    BP_RUNTIME_READ(out, t, BpBackendInfoTable, destroy);
    BP_RUNTIME_READ(out, t, BpBackendInfoTable, data);
  }
  Require(origin, "BpBackendInfo", t != nullptr,
          {{"destroy", out.destroy != nullptr}, {"data", out.data != nullptr}});
  return out;
}

BpBackendContextTable ReadTable(const BpBackendContext* object, const PluginOrigin& origin) {
  auto out = Empty<BpBackendContextTable>();
  const BpBackendContextTable* t = object ? object->table : nullptr;
  if (t) {
    BP_RUNTIME_READ(out, t, BpBackendContextTable, destroy);
    BP_RUNTIME_READ(out, t, BpBackendContextTable, before_load_network);
    BP_RUNTIME_READ(out, t, BpBackendContextTable, after_load_network);
    BP_RUNTIME_READ(out, t, BpBackendContextTable, before_unload_network);
    BP_RUNTIME_READ(out, t, BpBackendContextTable, after_unload_network);
  }
  Require(origin, "BpBackendContext", t != nullptr, {{"destroy", out.destroy != nullptr}});
  return out;
}

BpLayerSupportTable ReadTable(const BpLayerSupport* object, const PluginOrigin& origin) {
  auto out = Empty<BpLayerSupportTable>();
  const BpLayerSupportTable* t = object ? object->table : nullptr;
  if (t) {
    BP_RUNTIME_READ(out, t, BpLayerSupportTable, destroy);
    BP_RUNTIME_READ(out, t, BpLayerSupportTable, is_layer_supported);
  }
  Require(origin, "BpLayerSupport", t != nullptr,
          {{"destroy", out.destroy != nullptr}, {"is_layer_supported", out.is_layer_supported != nullptr}});
  return out;
}

BpOptimizationTable ReadTable(const BpOptimization* object, const PluginOrigin& origin) {
  auto out = Empty<BpOptimizationTable>();
  const BpOptimizationTable* t = object ? object->table : nullptr;
  if (t) {
    BP_RUNTIME_READ(out, t, BpOptimizationTable, destroy);
    BP_RUNTIME_READ(out, t, BpOptimizationTable, substitutions);
    BP_RUNTIME_READ(out, t, BpOptimizationTable, failed);
    BP_RUNTIME_READ(out, t, BpOptimizationTable, untouched);
    BP_RUNTIME_READ(out, t, BpOptimizationTable, take_payload);
  }
  Require(origin, "BpOptimization", t != nullptr, {{"destroy", out.destroy != nullptr}});
  return out;
}

BpMemoryManagerTable ReadTable(const BpMemoryManager* object, const PluginOrigin& origin) {
  auto out = Empty<BpMemoryManagerTable>();
  const BpMemoryManagerTable* t = object ? object->table : nullptr;
  if (t) {
    BP_RUNTIME_READ(out, t, BpMemoryManagerTable, destroy);
    BP_RUNTIME_READ(out, t, BpMemoryManagerTable, acquire);
    BP_RUNTIME_READ(out, t, BpMemoryManagerTable, release);
  }
  Require(origin, "BpMemoryManager", t != nullptr, {{"destroy", out.destroy != nullptr}});
  return out;
}

BpWorkloadFactoryTable ReadTable(const BpWorkloadFactory* object, const PluginOrigin& origin) {
  auto out = Empty<BpWorkloadFactoryTable>();
  const BpWorkloadFactoryTable* t = object ? object->table : nullptr;
  if (t) {
    BP_RUNTIME_READ(out, t, BpWorkloadFactoryTable, destroy);
    BP_RUNTIME_READ(out, t, BpWorkloadFactoryTable, create_workload);
  }
  Require(origin, "BpWorkloadFactory", t != nullptr,
          {{"destroy", out.destroy != nullptr}, {"create_workload", out.create_workload != nullptr}});
  return out;
}

BpWorkloadTable ReadTable(const BpWorkload* object, const PluginOrigin& origin) {
  auto out = Empty<BpWorkloadTable>();
  const BpWorkloadTable* t = object ? object->table : nullptr;
  if (t) {
    BP_RUNTIME_READ(out, t, BpWorkloadTable, destroy);
    BP_RUNTIME_READ(out, t, BpWorkloadTable, execute);
    BP_RUNTIME_READ(out, t, BpWorkloadTable, get_scratch_size);
    BP_RUNTIME_READ(out, t, BpWorkloadTable, get_info);
  }
  Require(origin, "BpWorkload", t != nullptr,
          {{"destroy", out.destroy != nullptr}, {"execute", out.execute != nullptr}});
  return out;
}

BpTensorHandleFactoryTable ReadTable(const BpTensorHandleFactory* object, const PluginOrigin& origin) {
  auto out = Empty<BpTensorHandleFactoryTable>();
  const BpTensorHandleFactoryTable* t = object ? object->table : nullptr;
  if (t) {
    BP_RUNTIME_READ(out, t, BpTensorHandleFactoryTable, destroy);
    BP_RUNTIME_READ(out, t, BpTensorHandleFactoryTable, get_id);
    BP_RUNTIME_READ(out, t, BpTensorHandleFactoryTable, get_properties);
    BP_RUNTIME_READ(out, t, BpTensorHandleFactoryTable, create_handle);
  }
  Require(origin, "BpTensorHandleFactory", t != nullptr,
          {{"destroy", out.destroy != nullptr},
           {"get_id", out.get_id != nullptr},
           {"create_handle", out.create_handle != nullptr}});
  return out;
}

BpTensorHandleTable ReadTable(const BpTensorHandle* object, const PluginOrigin& origin) {
  auto out = Empty<BpTensorHandleTable>();
  const BpTensorHandleTable* t = object ? object->table : nullptr;
  if (t) {
    BP_RUNTIME_READ(out, t, BpTensorHandleTable, destroy);
    BP_RUNTIME_READ(out, t, BpTensorHandleTable, get_info);
    BP_RUNTIME_READ(out, t, BpTensorHandleTable, map);
    BP_RUNTIME_READ(out, t, BpTensorHandleTable, unmap);
    BP_RUNTIME_READ(out, t, BpTensorHandleTable, import_memory);
  }
  Require(origin, "BpTensorHandle", t != nullptr,
          {{"destroy", out.destroy != nullptr}, {"map", out.map != nullptr}, {"unmap", out.unmap != nullptr}});
  return out;
}

#undef BP_RUNTIME_READ

}  // namespace backplane::loading
