// Issue 41, defect 7: what one more layer costs in memory when a network is built, optimized,
// loaded and run once, on CpuRef and on CpuOneDnn (the plugins as the build wrote them). Its own
// executable: it replaces the global operator new/delete to count the bytes live at the peak, in
// this executable and (through ELF symbol interposition) in libbackplane and the plugins; memory
// a library takes with malloc directly (oneDNN's primitives and buffers) is not counted. On
// Windows a DLL's allocations do not come here, and the cases are skipped.
#include <backplane/descriptors.hpp>
#include <backplane/execution.hpp>
#include <backplane/network.hpp>
#include <backplane/runtime.hpp>

#include <doctest/doctest.h>

#include <atomic>
#include <cstdlib>
#include <new>
#include <string>
#include <vector>

namespace {

std::atomic<std::size_t> g_live{0};  // bytes held through operator new
std::atomic<std::size_t> g_peak{0};  // the most g_live has been since ResetPeak

// Each block carries its size in front, so delete knows what it gives back.
constexpr std::size_t kHeader = alignof(std::max_align_t);

void* Allocate(std::size_t size) {
  auto* block = static_cast<unsigned char*>(std::malloc(size + kHeader));
  if (!block) throw std::bad_alloc();
  *reinterpret_cast<std::size_t*>(block) = size;
  const std::size_t live = g_live.fetch_add(size) + size;
  std::size_t peak = g_peak.load();
  while (live > peak && !g_peak.compare_exchange_weak(peak, live)) {
  }
  return block + kHeader;
}

void Free(void* pointer) {
  if (!pointer) return;
  auto* block = static_cast<unsigned char*>(pointer) - kHeader;
  g_live.fetch_sub(*reinterpret_cast<std::size_t*>(block));
  std::free(block);
}

}  // namespace

void* operator new(std::size_t size) { return Allocate(size); }
void* operator new[](std::size_t size) { return Allocate(size); }
void operator delete(void* pointer) noexcept { Free(pointer); }
void operator delete[](void* pointer) noexcept { Free(pointer); }
void operator delete(void* pointer, std::size_t) noexcept { Free(pointer); }
void operator delete[](void* pointer, std::size_t) noexcept { Free(pointer); }
// The nothrow forms too: a sanitizer's runtime supplies its own defaults for any form not
// replaced here, and a block from one of those must never reach Free (std::stable_sort's
// temporary buffer comes from nothrow new).
void* operator new(std::size_t size, const std::nothrow_t&) noexcept {
  try {
    return Allocate(size);
  } catch (const std::bad_alloc&) {
    return nullptr;
  }
}
void* operator new[](std::size_t size, const std::nothrow_t& tag) noexcept { return operator new(size, tag); }
void operator delete(void* pointer, const std::nothrow_t&) noexcept { Free(pointer); }
void operator delete[](void* pointer, const std::nothrow_t&) noexcept { Free(pointer); }

namespace backplane {
namespace {

#ifndef BACKPLANE_LAYER_MEMORY_PLUGIN_DIRS
#error "BACKPLANE_LAYER_MEMORY_PLUGIN_DIRS names the folders of the built CpuRef and CpuOneDnn plugins"
#endif

// A few KB per layer, with room: measured 2.1 KB on CpuRef (the runtime's share and CpuRef's
// workload) and 3.2 KB on CpuOneDnn (its workload, tensor handle and run objects; oneDNN's own
// primitive is not counted). CpuOneDnn's was 32.8 KB before its workloads kept their
// descriptors in a shared pool, and 5.9 KB before elementwise layers had one workload for both
// thread counts, memory objects were shared by the network's workloads and tensor handles
// shared their descriptors.
constexpr std::size_t kCpuRefBytesPerLayerBound = 3 * 1024;
constexpr std::size_t kCpuOneDnnBytesPerLayerBound = 4 * 1024 + 512;

std::unique_ptr<Runtime> MakeRuntime() {
  RuntimeOptions options;
  options.backend_paths = {BACKPLANE_LAYER_MEMORY_PLUGIN_DIRS};
  options.enable_static_backends = false;
  return Runtime::Create(options);
}

bool Available(const Runtime& runtime, const BackendId& id) {
  for (const auto& backend : runtime.GetBackends()) {
    if (backend.id == id) return true;
  }
  return false;
}

// The peak of live bytes over building a chain of `layers` Relu layers ([1, 16] f32), optimizing
// it for `backends`, loading it, making a context and running it once, above the bytes live
// before; everything is released before it returns.
std::size_t PeakBytes(Runtime& runtime, std::size_t layers, const std::vector<BackendId>& backends) {
  const TensorInfo info{TensorShape{1, 16}, DataType::kFloat32};
  std::vector<float> input(16, -0.5f);
  std::vector<float> output(16, 1.0f);
  input[3] = 0.25f;
  const std::size_t before = g_live.load();
  g_peak.store(before);
  {
    Network network;
    OutputSlot x = network.AddInput("x", info);
    for (std::size_t i = 0; i < layers; ++i) x = network.Add(ActivationDescriptor{}, {x}, "relu" + std::to_string(i));
    network.AddOutput("y", x);
    OptimizeOptions options;
    options.backends = backends;
    const NetworkId id = runtime.LoadNetwork(runtime.Optimize(network, options));
    {
      auto context = runtime.CreateExecutionContext(id);
      context->Run({{"x", {info, input.data()}}}, {{"y", {info, output.data()}}});
    }
    runtime.UnloadNetwork(id);
  }
  CHECK(output[3] == 0.25f);  // the chain ran: Relu keeps a positive value
  CHECK(output[0] == 0.0f);
  return g_peak.load() - before;
}

// Bytes per layer that a chain of 2N layers costs above one of N.
double BytesPerAddedLayer(Runtime& runtime, std::size_t n, const std::vector<BackendId>& backends) {
  PeakBytes(runtime, n, backends);  // warm-up: what the first load of a backend allocates for good
  const std::size_t small = PeakBytes(runtime, n, backends);
  const std::size_t large = PeakBytes(runtime, 2 * n, backends);
  const double per_layer = (static_cast<double>(large) - static_cast<double>(small)) / static_cast<double>(n);
  MESSAGE(n << " layers: " << small << " bytes at the peak, " << 2 * n << ": " << large << " (" << per_layer
            << " bytes per added layer)");
  return per_layer;
}

#if defined(_WIN32)
constexpr bool kCounted = false;  // DLLs allocate through their own operator new
#else
constexpr bool kCounted = true;
#endif

TEST_CASE("a layer more costs a few KB at the peak of building, loading and running on CpuRef" *
          doctest::skip(!kCounted)) {
  auto runtime = MakeRuntime();
  REQUIRE(Available(*runtime, BackendId("CpuRef")));
  CHECK(BytesPerAddedLayer(*runtime, 2000, {BackendId("CpuRef")}) < kCpuRefBytesPerLayerBound);
}

TEST_CASE("a layer more costs a few KB at the peak of building, loading and running on CpuOneDnn" *
          doctest::skip(!kCounted)) {
  auto runtime = MakeRuntime();
  if (!Available(*runtime, BackendId("CpuOneDnn"))) {
    MESSAGE("CpuOneDnn is not built or not available here: skipped");
    return;
  }
  CHECK(BytesPerAddedLayer(*runtime, 2000, {BackendId("CpuOneDnn"), BackendId("CpuRef")}) <
        kCpuOneDnnBytesPerLayerBound);
}

}  // namespace
}  // namespace backplane
