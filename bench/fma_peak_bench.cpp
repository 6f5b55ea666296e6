// The machine's fp32 peak, measured: each of T threads runs fused multiply-adds on 12
// independent vector accumulators (enough to hide the FMA latency on two FMA ports) for about
// 0.2 s; the best of 5 tries is printed as JSON, {"gflops": G, "threads": T, "isa": "..."}.
// bench/peers/run_peers.py runs it for its "% of measured peak" column. Run by hand, not a test:
//   build/bin/backplane_fma_peak [--threads 2]
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(_M_X64)
#include <immintrin.h>
#define BACKPLANE_X86 1
#endif

namespace {

constexpr int kAccumulators = 12;

#if defined(BACKPLANE_X86)
// Each returns a value that depends on every FMA, so none is optimized away.
__attribute__((target("avx512f"))) float Avx512(std::int64_t iterations) {
  __m512 acc[kAccumulators];
  for (int i = 0; i < kAccumulators; ++i) acc[i] = _mm512_set1_ps(1e-3f * static_cast<float>(i));
  const __m512 a = _mm512_set1_ps(0.9999999f), b = _mm512_set1_ps(1e-7f);
  for (std::int64_t n = 0; n < iterations; ++n) {
    for (int i = 0; i < kAccumulators; ++i) acc[i] = _mm512_fmadd_ps(acc[i], a, b);
  }
  __m512 sum = acc[0];
  for (int i = 1; i < kAccumulators; ++i) sum = _mm512_add_ps(sum, acc[i]);
  float lanes[16];
  _mm512_storeu_ps(lanes, sum);
  float total = 0.0f;
  for (float lane : lanes) total += lane;
  return total;
}

__attribute__((target("avx2,fma"))) float Avx2(std::int64_t iterations) {
  __m256 acc[kAccumulators];
  for (int i = 0; i < kAccumulators; ++i) acc[i] = _mm256_set1_ps(1e-3f * static_cast<float>(i));
  const __m256 a = _mm256_set1_ps(0.9999999f), b = _mm256_set1_ps(1e-7f);
  for (std::int64_t n = 0; n < iterations; ++n) {
    for (int i = 0; i < kAccumulators; ++i) acc[i] = _mm256_fmadd_ps(acc[i], a, b);
  }
  float lanes[8];
  __m256 sum = acc[0];
  for (int i = 1; i < kAccumulators; ++i) sum = _mm256_add_ps(sum, acc[i]);
  _mm256_storeu_ps(lanes, sum);
  float total = 0.0f;
  for (float lane : lanes) total += lane;
  return total;
}
#endif

// Scalar multiply-adds (the compiler may vectorize them): a floor for other CPUs.
float Scalar(std::int64_t iterations) {
  float acc[kAccumulators * 4];
  for (int i = 0; i < kAccumulators * 4; ++i) acc[i] = 1e-3f * static_cast<float>(i);
  for (std::int64_t n = 0; n < iterations; ++n) {
    for (float& value : acc) value = value * 0.9999999f + 1e-7f;
  }
  float total = 0.0f;
  for (float value : acc) total += value;
  return total;
}

struct Kernel {
  const char* isa;
  float (*run)(std::int64_t);
  int lanes;  // floats per accumulator
};

Kernel Pick() {
#if defined(BACKPLANE_X86)
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return {"avx512", Avx512, 16 * kAccumulators};
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) return {"avx2", Avx2, 8 * kAccumulators};
#endif
  return {"scalar", Scalar, 4 * kAccumulators};
}

// Seconds for `threads` threads to each run `iterations`, started together.
double Time(const Kernel& kernel, int threads, std::int64_t iterations) {
  std::atomic<bool> go{false};
  std::atomic<int> ready{0};
  std::vector<float> sinks(static_cast<std::size_t>(threads));
  std::vector<std::thread> workers;
  for (int t = 0; t < threads; ++t) {
    workers.emplace_back([&, t] {
      ready.fetch_add(1);
      while (!go.load(std::memory_order_acquire)) std::this_thread::yield();
      sinks[static_cast<std::size_t>(t)] = kernel.run(iterations);
    });
  }
  while (ready.load() < threads) std::this_thread::yield();
  const auto start = std::chrono::steady_clock::now();
  go.store(true, std::memory_order_release);
  for (auto& worker : workers) worker.join();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  float sink = 0.0f;
  for (float value : sinks) sink += value;
  if (sink == 12345.678f) std::fprintf(stderr, "%g\n", static_cast<double>(sink));  // keeps the results alive
  return seconds;
}

}  // namespace

int main(int argc, char** argv) {
  int threads = 2;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--threads") == 0 && i + 1 < argc) {
      threads = std::atoi(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: %s [--threads T]  (T >= 1; default 2)\n", argv[0]);
      return 2;
    }
  }
  if (threads < 1 || threads > 1024) {
    std::fprintf(stderr, "--threads must be 1 to 1024, not %d\n", threads);
    return 2;
  }
  const Kernel kernel = Pick();
  // Calibrate to about 0.2 s per try on one thread.
  std::int64_t iterations = 1 << 20;
  while (Time(kernel, 1, iterations) < 0.05) iterations *= 2;
  iterations *= 4;
  double best = 0.0;
  for (int attempt = 0; attempt < 5; ++attempt) {
    const double seconds = Time(kernel, threads, iterations);
    const double flops = 2.0 * kernel.lanes * static_cast<double>(iterations) * threads;
    best = std::max(best, flops / seconds / 1e9);
  }
  std::printf("{\"gflops\": %.1f, \"threads\": %d, \"isa\": \"%s\"}\n", best, threads, kernel.isa);
  return 0;
}
