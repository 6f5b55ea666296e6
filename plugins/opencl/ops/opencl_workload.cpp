#include "opencl_workload.hpp"

#include "../opencl_buffer_handle.hpp"

#include <backplane/exception.hpp>

#include <algorithm>

namespace backplane::opencl {

ClBuffer& ClBuffer::operator=(ClBuffer&& other) noexcept {
  if (this != &other) {
    if (mem_) clReleaseMemObject(mem_);
    mem_ = std::exchange(other.mem_, nullptr);
  }
  return *this;
}

ClBuffer::~ClBuffer() {
  if (mem_) clReleaseMemObject(mem_);
}

ClKernel& ClKernel::operator=(ClKernel&& other) noexcept {
  if (this != &other) {
    if (kernel_) clReleaseKernel(kernel_);
    kernel_ = std::exchange(other.kernel_, nullptr);
  }
  return *this;
}

ClKernel::~ClKernel() {
  if (kernel_) clReleaseKernel(kernel_);
}

ClKernel MakeKernel(OpenClDevice& device, const char* source, const char* name) {
  cl_program program = device.GetProgram(source, "");
  cl_int status = CL_SUCCESS;
  cl_kernel kernel = clCreateKernel(program, name, &status);
  CheckCl(status, (std::string("clCreateKernel(") + name + ")").c_str());
  return ClKernel(kernel);
}

ClBuffer UploadBuffer(OpenClDevice& device, const void* data, std::size_t bytes) {
  if (bytes == 0) return AllocateBuffer(device, 1);
  cl_int status = CL_SUCCESS;
  cl_mem mem = clCreateBuffer(device.Context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes,
                              const_cast<void*>(data), &status);
  CheckCl(status, "clCreateBuffer (constant upload)");
  return ClBuffer(mem);
}

ClBuffer AllocateBuffer(OpenClDevice& device, std::size_t bytes) {
  cl_int status = CL_SUCCESS;
  cl_mem mem = clCreateBuffer(device.Context(), CL_MEM_READ_WRITE, std::max<std::size_t>(bytes, 1), nullptr, &status);
  CheckCl(status, "clCreateBuffer");
  return ClBuffer(mem);
}

void Launch(OpenClDevice& device, cl_kernel kernel, const std::vector<std::size_t>& global,
            const std::vector<std::size_t>& local, const std::vector<KernelArg>& args, const char* what) {
  std::vector<std::size_t> rounded = global;
  for (std::size_t d = 0; d < rounded.size(); ++d) {
    if (rounded[d] == 0) return;
    if (!local.empty()) rounded[d] = (rounded[d] + local[d] - 1) / local[d] * local[d];
  }
  std::lock_guard<std::recursive_mutex> lock(device.LaunchMutex());
  for (std::size_t i = 0; i < args.size(); ++i) {
    const cl_int status = clSetKernelArg(kernel, static_cast<cl_uint>(i), args[i].size, args[i].value);
    if (status != CL_SUCCESS) {
      CheckCl(status, (std::string(what) + ": clSetKernelArg " + std::to_string(i)).c_str());
    }
  }
  CheckCl(clEnqueueNDRangeKernel(device.Queue(), kernel, static_cast<cl_uint>(rounded.size()), nullptr,
                                 rounded.data(), local.empty() ? nullptr : local.data(), 0, nullptr, nullptr),
          what);
}

void EnqueueCopy(OpenClDevice& device, cl_mem src, std::size_t src_offset, cl_mem dst, std::size_t dst_offset,
                 std::size_t bytes, const char* what) {
  if (bytes == 0 || (src == dst && src_offset == dst_offset)) return;
  CheckCl(clEnqueueCopyBuffer(device.Queue(), src, dst, src_offset, dst_offset, bytes, 0, nullptr, nullptr), what);
}

cl_int8 PackInt8(const std::vector<std::int64_t>& values) {
  cl_int8 packed{};
  for (std::size_t i = 0; i < values.size() && i < 8; ++i) packed.s[i] = static_cast<cl_int>(values[i]);
  return packed;
}

OpenClWorkload::OpenClWorkload(const backend::ILayerView& layer, OpenClDevice& device,
                               const std::vector<std::size_t>& keep_on_host)
    : device_(device), name_(std::string(backend::ToString(layer.GetType())) + " '" + layer.GetName() + "'") {
  constants_.resize(layer.GetNumInputs());
  for (std::size_t i = 0; i < layer.GetNumInputs(); ++i) {
    if (std::find(keep_on_host.begin(), keep_on_host.end(), i) != keep_on_host.end()) continue;
    if (const void* data = layer.GetConstantInput(i)) {
      constants_[i] = UploadBuffer(device, data, layer.GetInputInfo(i).NumBytes());
    }
  }
}

cl_mem OpenClWorkload::In(const backend::WorkloadArgs& args, std::size_t index) const {
  if (IsConstant(index)) return constants_[index].Get();
  const auto* handle = dynamic_cast<const OpenClBufferHandle*>(args.inputs.at(index));
  if (!handle) {
    throw Exception(ErrorCode::kInternal, name_ + ": input " + std::to_string(index) +
                                              " is not a GpuOpenCl buffer and not a constant");
  }
  return handle->Buffer();
}

cl_mem OpenClWorkload::Out(const backend::WorkloadArgs& args, std::size_t index) const {
  const auto* handle = dynamic_cast<const OpenClBufferHandle*>(args.outputs.at(index));
  if (!handle) {
    throw Exception(ErrorCode::kInternal, name_ + ": output " + std::to_string(index) + " is not a GpuOpenCl buffer");
  }
  return handle->Buffer();
}

}  // namespace backplane::opencl
