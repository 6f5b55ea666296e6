// Backend options (RuntimeOptions::backend_options) checked against what each backend declares
// (IBackend::GetOptionSpecs) before it sees them: an unknown key or a value that does not parse
// as the declared type is the application's error, reported with the backend, the key, the
// value and what is accepted, never a backend that silently ignores it.
#pragma once

#include <backplane/backend/backend.hpp>
#include <backplane/backend_id.hpp>
#include <backplane/exception.hpp>
#include <backplane/runtime_options.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace backplane::loading {

// A bad backend option. Runtime::Create lets it through (it is not one plugin's fault, so it does
// not become a discovery record). Code kInvalidArgument.
class OptionError : public Exception {
 public:
  explicit OptionError(const std::string& message);
  ~OptionError() override;
};

// "string", "integer", "boolean".
const char* ToString(backend::OptionSpec::Type type);

// Whether `value` is a value of `type`: integer: decimal with an optional sign, within 64 bits;
// boolean: "0", "1", "true" or "false"; string: anything.
bool ParsesAs(backend::OptionSpec::Type type, std::string_view value);

// The options backend `id`, which declares `specs`, gets: every entry of `own` (its own entry in
// RuntimeOptions::backend_options; each key must be declared and each value parse), and over
// those the entries of `all` (the kAllBackends entry) whose keys it declares (their values must
// parse too); `own` wins key by key. Either may be null. Throws OptionError naming the backend,
// key, value and the options it accepts.
backend::BackendOptions SelectOptions(const BackendId& id, const std::vector<backend::OptionSpec>& specs,
                                      const backend::BackendOptions* all, const backend::BackendOptions* own);

// Throws OptionError when a key of `all` (the kAllBackends entry) is declared by none of
// `backends`, listing what they accept.
void CheckAllBackendsOptions(const backend::BackendOptions& all, const std::vector<BackendInfo>& backends);

}  // namespace backplane::loading
