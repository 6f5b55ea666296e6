#include "loading/c_tables.hpp"

#include "platform/message_text.hpp"

#include <backplane/backend/c_status.hpp>

#include <string>

namespace backplane::loading {

namespace {

// Appends `function` to the comma-separated list `missing`.
void AddMissing(std::string& missing, const char* function) {
  if (!missing.empty()) missing += ", ";
  missing += function;
}

// Throws PluginError when `object` has no table, or naming every required function it lacks
// (`missing`, comma-separated; empty: none).
void Require(const PluginOrigin& origin, const char* object, bool has_table, const std::string& missing) {
  if (!has_table) {
    throw PluginError(ErrorCode::kBackendFailure,
                      "backend " + origin.id.Get() + " returned a " + object + " without a function table");
  }
  if (!missing.empty()) {
    throw PluginError(ErrorCode::kBackendFailure, "backend " + origin.id.Get() + " returned a " + object +
                                                      " whose table lacks the required function" +
                                                      (missing.find(',') == std::string::npos ? " " : "s ") +
                                                      missing);
  }
}

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

// ReadTable of each table in c_tables.def: each function copied when the plugin's table has it,
// then the required ones checked.
#define BP_TABLE_BEGIN(Object)                                                   \
  Bp##Object##Table ReadTable(const Bp##Object* object, const PluginOrigin& origin) { \
    auto out = Empty<Bp##Object##Table>();                                      \
    const Bp##Object##Table* t = object ? object->table : nullptr;               \
    std::string missing;
#define BP_TABLE_FUNCTION(Object, function, required)                                            \
  out.function = t && BP_HAS_FUNCTION(t, Bp##Object##Table, function) ? t->function : nullptr; \
  if ((required) && out.function == nullptr) AddMissing(missing, #function);
#define BP_TABLE_END(Object)                              \
  Require(origin, "Bp" #Object, t != nullptr, missing); \
  return out;                                           \
  }
#include "loading/c_tables.def"

}  // namespace backplane::loading
