#include "onednn_backend_context.hpp"

#include "dnnl_compat.hpp"

#include <backplane/exception.hpp>

#include <thread>

namespace backplane::onednn {

int CoreCount() {
  // Asked once per process: glibc reads /sys on every hardware_concurrency() call, and discovery
  // asks at every Runtime::Create (the `threads` option's default, the device name).
  static const int count = [] {
    const unsigned online = std::thread::hardware_concurrency();
    return online > 0 ? static_cast<int>(online) : 1;
  }();
  return count;
}

Settings DefaultSettings() {
  Settings settings;
  settings.threads = CoreCount();
  return settings;
}

namespace {
// "1"/"true" or "0"/"false"; else throws naming the option.
bool ParseBoolean(const std::string& key, const std::string& value) {
  if (value == "1" || value == "true") return true;
  if (value == "0" || value == "false") return false;
  throw Exception(ErrorCode::kInvalidArgument,
                  "CpuOneDnn option " + key + "='" + value + "' must be 0, 1, true or false");
}
}  // namespace

Settings ParseSettings(const backend::BackendOptions& options) {
  Settings settings = DefaultSettings();
  for (const auto& [key, value] : options) {
    if (key == "threads") {
      std::size_t used = 0;
      int threads = 0;
      try {
        threads = std::stoi(value, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != value.size() || threads < 1) {
        throw Exception(ErrorCode::kInvalidArgument,
                        "CpuOneDnn option threads='" + value + "' is not a positive integer");
      }
      settings.threads = threads;
    } else if (key == "fast_math") {
      settings.fast_math = ParseBoolean(key, value);
    } else if (key == "winograd") {
      settings.winograd = ParseBoolean(key, value);
    } else if (key == "adaptive_threads") {
      if (value == "1") {
        settings.adaptive = AdaptiveThreads::kAuto;
      } else if (value == "0") {
        settings.adaptive = AdaptiveThreads::kOff;
      } else if (value == "always") {
        settings.adaptive = AdaptiveThreads::kAlways;
      } else {
        throw Exception(ErrorCode::kInvalidArgument,
                        "CpuOneDnn option adaptive_threads='" + value + "' must be 1, 0 or always");
      }
    } else {
      // The runtime passes only declared keys (OneDnnBackend::GetOptionSpecs); this guards
      // direct callers.
      throw Exception(ErrorCode::kInvalidArgument, "CpuOneDnn has no option '" + key +
                                                       "'; its options: threads, fast_math, adaptive_threads, winograd");
    }
  }
  return settings;
}

bool FastMathAvailable(std::string* reason) {
  using dnnl::memory;
  static const bool native = [] {
    try {
      const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
      const memory::desc a({64, 64}, memory::data_type::bf16, memory::format_tag::ab);
      const memory::desc c({64, 64}, memory::data_type::f32, memory::format_tag::ab);
      return !IsReference(compat::MatMul(engine, a, a, nullptr, c, dnnl::primitive_attr()));
    } catch (const dnnl::error&) {
      return false;
    }
  }();
  if (!native && reason) {
    *reason = "this CPU (ISA " + compat::EffectiveIsaName() +
              ") has no native bf16 (AVX512-BF16 or AMX): fast_math=1 is accepted but computes in f32";
  }
  return native;
}

dnnl::memory::format_tag ProbeActivationTag(const ExecutionSettings& execution) {
  using dnnl::memory;
  const memory::dims x{1, 64, 28, 28}, w{64, 64, 3, 3};
  const auto desc = [](const memory::dims& dims, memory::format_tag tag,
                        memory::data_type type = memory::data_type::f32) { return memory::desc(dims, type, tag); };
  const auto probe = [&](memory::format_tag tag) {
    return compat::Convolution(execution.engine, desc(x, tag, execution.compute_type),
                               desc(w, memory::format_tag::any, execution.compute_type), nullptr, desc(x, tag),
                               {1, 1}, {1, 1}, {1, 1}, {1, 1}, execution.Attr());
  };
  // f32: channel-blocked layouts first; at batch 1 their jit kernels beat the nhwc brgemm
  // kernels oneDNN picks by itself on AVX-512 cores (resnet50 ~10% faster here, see the
  // README). bf16 (fast_math): oneDNN's own pick, nhwc for its AMX kernels (the blocked bf16
  // kernels are 4x slower on resnet50 here).
  const bool blocked_first = execution.compute_type == memory::data_type::f32;
  for (const auto tag : {memory::format_tag::nChw16c, memory::format_tag::nChw8c}) {
    if (!blocked_first) break;
    try {
      if (!IsReference(probe(tag))) return tag;
    } catch (const dnnl::error&) {
      // No kernel for this layout on this CPU: try the next.
    }
  }
  try {
    const auto chosen = probe(memory::format_tag::any).dst_desc();
    for (const auto tag : {memory::format_tag::nhwc, memory::format_tag::nChw16c, memory::format_tag::nChw8c}) {
      if (chosen == desc(x, tag)) return tag;
    }
  } catch (const dnnl::error&) {
    // No convolution for the probe: keep the default.
  }
  return memory::format_tag::nChw16c;
}

bool IsReference(const dnnl::primitive_desc_base& pd) {
  const char* name = pd.impl_info_str();
  return name && std::string(name).rfind("ref", 0) == 0;
}

namespace {
thread_local int t_one_thread_scopes = 0;  // OneThreadScopes open on this thread
}  // namespace

OneThreadScope::OneThreadScope() { ++t_one_thread_scopes; }
OneThreadScope::~OneThreadScope() { --t_one_thread_scopes; }

int ExecutionSettings::Threads() const { return t_one_thread_scopes > 0 ? 1 : settings.threads; }

dnnl::primitive_attr ExecutionSettings::Attr() const {
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  if (settings.fast_math) compat::SetFastMath(attr);
  return attr;
}

}  // namespace backplane::onednn
