// CLBlast's own SGEMM on one OpenCL device, with no Backplane in between: the ceiling that
// GpuOpenCl's matmul (backplane_backend_kernels_bench) is measured against. Square row-major
// C = A * B for each size, on device buffers, timed with clFinish around `--iterations` calls;
// the table shows the median and best GFLOP/s over the rounds.
//
//   backplane_clblast_sgemm_bench [--sizes 512,1024,2048] [--rounds N] [--iterations N] [--allow-cpu]
//
// The device: the first GPU of any platform, else the first accelerator, else (with
// --allow-cpu) the first CPU device (PoCL). Not a test: timings never fail a build.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <clblast.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

int Fail(const std::string& message) {
  std::fprintf(stderr, "backplane_clblast_sgemm_bench: %s\n", message.c_str());
  return 1;
}

std::string DeviceString(cl_device_id device, cl_device_info what) {
  std::size_t size = 0;
  clGetDeviceInfo(device, what, 0, nullptr, &size);
  std::string value(size, '\0');
  clGetDeviceInfo(device, what, size, value.data(), nullptr);
  while (!value.empty() && value.back() == '\0') value.pop_back();
  return value;
}

// The first device of `type` on any platform, or null.
cl_device_id FirstDevice(cl_device_type type) {
  cl_uint platform_count = 0;
  if (clGetPlatformIDs(0, nullptr, &platform_count) != CL_SUCCESS || platform_count == 0) return nullptr;
  std::vector<cl_platform_id> platforms(platform_count);
  clGetPlatformIDs(platform_count, platforms.data(), nullptr);
  for (cl_platform_id platform : platforms) {
    cl_device_id device = nullptr;
    cl_uint count = 0;
    if (clGetDeviceIDs(platform, type, 1, &device, &count) == CL_SUCCESS && count > 0) return device;
  }
  return nullptr;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::size_t> sizes{512, 1024, 2048};
  int rounds = 5, iterations = 5;
  bool allow_cpu = false;
  for (int i = 1; i < argc; ++i) {
    const std::string option = argv[i];
    const bool has_value = i + 1 < argc;
    if (option == "--allow-cpu") {
      allow_cpu = true;
    } else if (option == "--sizes" && has_value) {
      sizes.clear();
      std::stringstream list(argv[++i]);
      for (std::string item; std::getline(list, item, ',');) sizes.push_back(std::strtoul(item.c_str(), nullptr, 10));
      if (sizes.empty() || std::count(sizes.begin(), sizes.end(), 0u) > 0) return Fail("--sizes needs sizes >= 1");
    } else if (option == "--rounds" && has_value) {
      rounds = std::atoi(argv[++i]);
    } else if (option == "--iterations" && has_value) {
      iterations = std::atoi(argv[++i]);
    } else {
      return Fail("usage: [--sizes 512,1024,2048] [--rounds N] [--iterations N] [--allow-cpu]");
    }
  }
  if (rounds < 1 || iterations < 1) return Fail("--rounds and --iterations need counts >= 1");

  cl_device_id device = FirstDevice(CL_DEVICE_TYPE_GPU);
  if (!device) device = FirstDevice(CL_DEVICE_TYPE_ACCELERATOR);
  if (!device && allow_cpu) device = FirstDevice(CL_DEVICE_TYPE_CPU);
  if (!device) return Fail(allow_cpu ? "no OpenCL device" : "no OpenCL GPU or accelerator (--allow-cpu for PoCL)");
  cl_int status = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &status);
  if (status != CL_SUCCESS) return Fail("clCreateContext failed: " + std::to_string(status));
  cl_command_queue queue = clCreateCommandQueue(context, device, 0, &status);
  if (status != CL_SUCCESS) return Fail("clCreateCommandQueue failed: " + std::to_string(status));
  std::printf("device: %s (%s)\n\n", DeviceString(device, CL_DEVICE_NAME).c_str(),
              DeviceString(device, CL_DRIVER_VERSION).c_str());
  std::printf("%-14s %12s %12s\n", "CLBlast SGEMM", "median GF/s", "best GF/s");

  for (std::size_t n : sizes) {
    std::vector<float> host(n * n);
    for (std::size_t i = 0; i < host.size(); ++i) host[i] = static_cast<float>(i % 17) * 0.01f - 0.08f;
    const std::size_t bytes = host.size() * sizeof(float);
    cl_mem a = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, host.data(), &status);
    cl_mem b = clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, host.data(), &status);
    cl_mem c = clCreateBuffer(context, CL_MEM_READ_WRITE, bytes, nullptr, &status);
    const auto gemm = [&] {
      return clblast::Gemm(clblast::Layout::kRowMajor, clblast::Transpose::kNo, clblast::Transpose::kNo, n, n, n,
                           1.0f, a, 0, n, b, 0, n, 0.0f, c, 0, n, &queue, nullptr);
    };
    if (const auto code = gemm(); code != clblast::StatusCode::kSuccess) {
      return Fail("clblast::Gemm " + std::to_string(n) + "^3 failed: status " + std::to_string(static_cast<int>(code)));
    }
    clFinish(queue);
    std::vector<double> gflops;
    for (int round = 0; round < rounds; ++round) {
      const auto start = Clock::now();
      for (int i = 0; i < iterations; ++i) gemm();
      clFinish(queue);
      const double seconds = std::chrono::duration<double>(Clock::now() - start).count() / iterations;
      gflops.push_back(2.0 * n * n * n / seconds / 1e9);
    }
    std::sort(gflops.begin(), gflops.end());
    const std::string name = "matmul " + std::to_string(n) + "^3";
    std::printf("%-14s %12.1f %12.1f\n", name.c_str(), gflops[gflops.size() / 2], gflops.back());
    clReleaseMemObject(a);
    clReleaseMemObject(b);
    clReleaseMemObject(c);
  }
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
  return 0;
}
