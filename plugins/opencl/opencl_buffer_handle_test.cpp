// Buffer handles and their factory on the test device: map/unmap, kernels between maps, host
// import, and the factory's properties.
#include "opencl_buffer_handle.hpp"
#include "opencl_buffer_handle_factory.hpp"

#include "opencl_test_device.hpp"

#include <backplane/exception.hpp>

#include <doctest/doctest.h>

#include <vector>

namespace {

using backplane::DataType;
using backplane::TensorInfo;
using backplane::backend::MemorySource;
using backplane::opencl::HostAccess;
using backplane::opencl::OpenClBufferHandle;
using backplane::opencl::OpenClBufferHandleFactory;
using backplane::opencl::OpenClDevice;
using backplane::opencl::testing::TempFolder;
using backplane::opencl::testing::TestDevice;

const char* const kAddOne = "__kernel void add_one(__global float* x) { x[get_global_id(0)] += 1.0f; }";

// Enqueues add_one over the handle's first `count` floats (without waiting).
void AddOne(OpenClDevice& device, const OpenClBufferHandle& handle, std::size_t count) {
  cl_int status = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(device.GetProgram(kAddOne, ""), "add_one", &status);
  REQUIRE(status == CL_SUCCESS);
  cl_mem buffer = handle.Buffer();
  {
    std::lock_guard<std::recursive_mutex> launch(device.LaunchMutex());
    REQUIRE(clSetKernelArg(kernel, 0, sizeof(buffer), &buffer) == CL_SUCCESS);
    REQUIRE(clEnqueueNDRangeKernel(device.Queue(), kernel, 1, nullptr, &count, nullptr, 0, nullptr, nullptr) ==
            CL_SUCCESS);
  }
  clReleaseKernel(kernel);
}

std::shared_ptr<OpenClDevice> SharedTestDevice(const TempFolder& folder) { return TestDevice(folder.path()); }

// Both ways to the host, whatever the device: staging is what discrete GPUs use.
const HostAccess kAccesses[] = {HostAccess::kMapInPlace, HostAccess::kStaged};
const char* Name(HostAccess access) { return access == HostAccess::kStaged ? "staged" : "in place"; }

}  // namespace

TEST_CASE("buffer handle: what is written through a mapping is read back, and kernels see it") {
  TempFolder folder;
  auto device = SharedTestDevice(folder);
  if (!device) return;
  const TensorInfo info{{2, 3}, DataType::kFloat32};
  for (const HostAccess access : kAccesses) {
    CAPTURE(Name(access));
    auto handle = backplane::opencl::CreateBufferHandle(device, info, access);
    CHECK(handle->GetInfo().NumBytes() == 24);
    CHECK(handle->Buffer() != nullptr);

    auto* data = static_cast<float*>(handle->Map());
    REQUIRE(data != nullptr);
    for (int i = 0; i < 6; ++i) data[i] = static_cast<float>(i);
    handle->Unmap();
    AddOne(*device, *handle, 6);
    const auto* result = static_cast<const float*>(handle->Map());  // blocking: waits for the kernel
    for (int i = 0; i < 6; ++i) CHECK(result[i] == static_cast<float>(i + 1));
    handle->Unmap();
  }
}

TEST_CASE("buffer handle: Map again without Unmap sees kernels enqueued in between, and Buffer() unmaps") {
  TempFolder folder;
  auto device = SharedTestDevice(folder);
  if (!device) return;
  for (const HostAccess access : kAccesses) {
    CAPTURE(Name(access));
    auto handle = backplane::opencl::CreateBufferHandle(device, TensorInfo{{4}, DataType::kFloat32}, access);
    auto* data = static_cast<float*>(handle->Map());
    for (int i = 0; i < 4; ++i) data[i] = 10.0f;
    AddOne(*device, *handle, 4);  // Buffer() unmaps first (the runtime's import step never unmaps)
    AddOne(*device, *handle, 4);
    const auto* again = static_cast<const float*>(handle->Map());
    const auto* third = static_cast<const float*>(handle->Map());
    CHECK(third[0] == 12.0f);
    CHECK(third[3] == 12.0f);
    (void)again;
    handle->Unmap();
    handle->Unmap();  // unmapping an unmapped handle does nothing
  }
}

TEST_CASE("buffer handle, staged: a write-back still queued when the handle goes is completed first") {
  TempFolder folder;
  auto device = SharedTestDevice(folder);
  if (!device) return;
  const std::size_t count = 1 << 20;  // 4 MB: a copy that is still queued when the handle goes
  std::vector<float> seen(count);
  cl_mem kept = nullptr;
  {
    auto handle = backplane::opencl::CreateBufferHandle(device, TensorInfo{{static_cast<std::int64_t>(count)}},
                                                        HostAccess::kStaged);
    kept = handle->Buffer();
    REQUIRE(clRetainMemObject(kept) == CL_SUCCESS);
    auto* data = static_cast<float*>(handle->Map());
    for (std::size_t i = 0; i < count; ++i) data[i] = static_cast<float>(i % 97);
    handle->Unmap();  // enqueues the write-back and returns
  }
  REQUIRE(clEnqueueReadBuffer(device->Queue(), kept, CL_TRUE, 0, count * sizeof(float), seen.data(), 0, nullptr,
                              nullptr) == CL_SUCCESS);
  clReleaseMemObject(kept);
  CHECK(seen[0] == 0.0f);
  CHECK(seen[count - 1] == static_cast<float>((count - 1) % 97));
}

TEST_CASE("buffer handle: imports host memory only where the device shares it, and works on it in place") {
  TempFolder folder;
  auto device = SharedTestDevice(folder);
  if (!device) return;
  auto handle = backplane::opencl::CreateBufferHandle(device, TensorInfo{{8}, DataType::kFloat32});
  alignas(64) float host[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  CHECK_FALSE(handle->Import(host, MemorySource::kUndefined));
  CHECK_FALSE(handle->Import(nullptr, MemorySource::kHost));
  if (!device->HostUnifiedMemory()) {
    CHECK_FALSE(handle->Import(host, MemorySource::kHost));
    MESSAGE("device has no host-unified memory: import refused as it must be");
    return;
  }
  CHECK_FALSE(handle->WrapsHostMemory());
  REQUIRE(handle->Import(host, MemorySource::kHost));
  CHECK(handle->WrapsHostMemory());
  AddOne(*device, *handle, 8);
  const auto* mapped = static_cast<const float*>(handle->Map());
  CHECK(mapped[7] == 8.0f);
  handle->Unmap();
  REQUIRE(clFinish(device->Queue()) == CL_SUCCESS);
  CHECK(host[0] == 1.0f);
  CHECK(host[7] == 8.0f);
  // Importing the same memory again keeps the buffer; other memory replaces it.
  const cl_mem wrapped = handle->Buffer();
  REQUIRE(handle->Import(host, MemorySource::kHost));
  CHECK(handle->Buffer() == wrapped);
  alignas(64) float other[8] = {};
  REQUIRE(handle->Import(other, MemorySource::kHost));
  AddOne(*device, *handle, 8);
  handle->Map();
  handle->Unmap();
  REQUIRE(clFinish(device->Queue()) == CL_SUCCESS);
  CHECK(other[0] == 1.0f);
  CHECK(host[0] == 1.0f);
}

TEST_CASE("buffer factory: id, host import/export exactly where the device shares host memory, handles") {
  TempFolder folder;
  auto device = SharedTestDevice(folder);
  if (!device) return;
  const OpenClBufferHandleFactory factory(device);
  CHECK(factory.GetId() == "Backplane/GpuOpenCl/Buffer");
  const auto properties = factory.GetProperties();
  CHECK(properties.supports_map_unmap);
  const auto expected = device->HostUnifiedMemory() ? static_cast<std::uint32_t>(MemorySource::kHost) : 0u;
  CHECK(properties.import_sources == expected);
  CHECK(properties.export_sources == expected);
  auto handle = factory.CreateTensorHandle(TensorInfo{{0}, DataType::kFloat32});  // empty tensors get 1 byte
  REQUIRE(dynamic_cast<OpenClBufferHandle*>(handle.get()) != nullptr);
  CHECK(handle->Map() != nullptr);
  handle->Unmap();
}

TEST_CASE("buffer factory without a device describes properties and refuses handles with the reason") {
  const OpenClBufferHandleFactory unified(true, "no OpenCL platform (ICD loader found no vendors)");
  CHECK(unified.GetProperties().import_sources == static_cast<std::uint32_t>(MemorySource::kHost));
  const OpenClBufferHandleFactory discrete(false, "why");
  CHECK(discrete.GetProperties().export_sources == 0);
  try {
    unified.CreateTensorHandle(TensorInfo{{1}, DataType::kFloat32});
    FAIL("no exception");
  } catch (const backplane::Exception& error) {
    CHECK(error.code() == backplane::ErrorCode::kUnsupported);
    CHECK(std::string(error.what()) ==
          "Backplane/GpuOpenCl/Buffer cannot create a tensor handle: no OpenCL platform (ICD loader found no vendors)");
  }
}
