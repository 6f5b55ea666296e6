#include "loading/backend_options.hpp"

#include "platform/message_text.hpp"

#include <charconv>
#include <cstdint>

namespace backplane::loading {

namespace {

using backend::OptionSpec;

const OptionSpec* Find(const std::vector<OptionSpec>& specs, const std::string& key) {
  for (const auto& spec : specs) {
    if (spec.key == key) return &spec;
  }
  return nullptr;
}

// "threads (integer), fast_math (boolean)" or "no options".
std::string Accepted(const std::vector<OptionSpec>& specs) {
  if (specs.empty()) return "no options";
  std::string text;
  for (const auto& spec : specs) {
    text += (text.empty() ? "" : ", ") + spec.key + " (" + ToString(spec.type) + ")";
  }
  return text;
}

const char* Expected(OptionSpec::Type type) {
  switch (type) {
    case OptionSpec::Type::kInteger: return "a decimal integer (optional sign, 64 bits)";
    case OptionSpec::Type::kBoolean: return "0, 1, true or false";
    case OptionSpec::Type::kString: break;
  }
  return "a string";
}

void CheckValue(const BackendId& id, const OptionSpec& spec, const std::string& value, const char* given_for) {
  if (ParsesAs(spec.type, value)) return;
  throw OptionError("backend " + id.Get() + ": option " + platform::Quoted(spec.key) + " = " +
                    platform::Quoted(value) + given_for + " is not a valid " + ToString(spec.type) + "; it must be " +
                    Expected(spec.type));
}

}  // namespace

OptionError::OptionError(const std::string& message) : Exception(ErrorCode::kInvalidArgument, message) {}
OptionError::~OptionError() = default;

const char* ToString(backend::OptionSpec::Type type) {
  switch (type) {
    case OptionSpec::Type::kString: return "string";
    case OptionSpec::Type::kInteger: return "integer";
    case OptionSpec::Type::kBoolean: return "boolean";
  }
  return "unknown";
}

bool ParsesAs(backend::OptionSpec::Type type, std::string_view value) {
  switch (type) {
    case OptionSpec::Type::kString: return true;
    case OptionSpec::Type::kBoolean: return value == "0" || value == "1" || value == "true" || value == "false";
    case OptionSpec::Type::kInteger: {
      if (!value.empty() && value.front() == '+') {
        value.remove_prefix(1);  // from_chars takes '-' only
        if (value.empty() || value.front() < '0' || value.front() > '9') return false;
      }
      std::int64_t parsed = 0;
      const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), parsed);
      return error == std::errc() && end == value.data() + value.size();
    }
  }
  return false;
}

backend::BackendOptions SelectOptions(const BackendId& id, const std::vector<OptionSpec>& specs,
                                      const backend::BackendOptions* all, const backend::BackendOptions* own) {
  backend::BackendOptions selected;
  if (all) {
    for (const auto& [key, value] : *all) {
      if (own && own->count(key)) continue;  // its own entry wins
      if (const OptionSpec* spec = Find(specs, key)) {
        CheckValue(id, *spec, value, " (given for all backends, \"*\")");
        selected[key] = value;
      }
    }
  }
  if (own) {
    for (const auto& [key, value] : *own) {
      const OptionSpec* spec = Find(specs, key);
      if (spec == nullptr) {
        throw OptionError("backend " + id.Get() + " has no option " + platform::Quoted(key) + " (given the value " +
                          platform::Quoted(value) + "); it accepts " + Accepted(specs));
      }
      CheckValue(id, *spec, value, "");
      selected[key] = value;
    }
  }
  return selected;
}

void CheckAllBackendsOptions(const backend::BackendOptions& all, const std::vector<BackendInfo>& backends) {
  for (const auto& [key, value] : all) {
    bool declared = false;
    for (const auto& backend : backends) declared = declared || Find(backend.options, key) != nullptr;
    if (declared) continue;
    std::string accepted;
    for (const auto& backend : backends) {
      accepted += (accepted.empty() ? "" : "; ") + backend.id.Get() + ": " + Accepted(backend.options);
    }
    throw OptionError("option " + platform::Quoted(key) + " = " + platform::Quoted(value) +
                      " was given for all backends (\"*\"), but no registered backend has it; they accept: " +
                      (accepted.empty() ? std::string("(no backend is registered)") : accepted));
  }
}

}  // namespace backplane::loading
