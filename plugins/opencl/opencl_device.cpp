#include "opencl_device.hpp"

#include "opencl_device_creation.hpp"
#include "program_cache.hpp"

#include <backplane/exception.hpp>

#include <algorithm>
#include <atomic>
#include <map>
#include <vector>

namespace backplane::opencl {

namespace {

const char* ErrorSymbol(cl_int status) {
  switch (status) {
    case CL_SUCCESS: return "CL_SUCCESS";
    case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
    case CL_DEVICE_NOT_AVAILABLE: return "CL_DEVICE_NOT_AVAILABLE";
    case CL_COMPILER_NOT_AVAILABLE: return "CL_COMPILER_NOT_AVAILABLE";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
    case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
    case CL_PROFILING_INFO_NOT_AVAILABLE: return "CL_PROFILING_INFO_NOT_AVAILABLE";
    case CL_MEM_COPY_OVERLAP: return "CL_MEM_COPY_OVERLAP";
    case CL_IMAGE_FORMAT_MISMATCH: return "CL_IMAGE_FORMAT_MISMATCH";
    case CL_IMAGE_FORMAT_NOT_SUPPORTED: return "CL_IMAGE_FORMAT_NOT_SUPPORTED";
    case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
    case CL_MAP_FAILURE: return "CL_MAP_FAILURE";
    case CL_MISALIGNED_SUB_BUFFER_OFFSET: return "CL_MISALIGNED_SUB_BUFFER_OFFSET";
    case CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST: return "CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST";
    case CL_COMPILE_PROGRAM_FAILURE: return "CL_COMPILE_PROGRAM_FAILURE";
    case CL_LINKER_NOT_AVAILABLE: return "CL_LINKER_NOT_AVAILABLE";
    case CL_LINK_PROGRAM_FAILURE: return "CL_LINK_PROGRAM_FAILURE";
    case CL_DEVICE_PARTITION_FAILED: return "CL_DEVICE_PARTITION_FAILED";
    case CL_KERNEL_ARG_INFO_NOT_AVAILABLE: return "CL_KERNEL_ARG_INFO_NOT_AVAILABLE";
    case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
    case CL_INVALID_DEVICE_TYPE: return "CL_INVALID_DEVICE_TYPE";
    case CL_INVALID_PLATFORM: return "CL_INVALID_PLATFORM";
    case CL_INVALID_DEVICE: return "CL_INVALID_DEVICE";
    case CL_INVALID_CONTEXT: return "CL_INVALID_CONTEXT";
    case CL_INVALID_QUEUE_PROPERTIES: return "CL_INVALID_QUEUE_PROPERTIES";
    case CL_INVALID_COMMAND_QUEUE: return "CL_INVALID_COMMAND_QUEUE";
    case CL_INVALID_HOST_PTR: return "CL_INVALID_HOST_PTR";
    case CL_INVALID_MEM_OBJECT: return "CL_INVALID_MEM_OBJECT";
    case CL_INVALID_IMAGE_FORMAT_DESCRIPTOR: return "CL_INVALID_IMAGE_FORMAT_DESCRIPTOR";
    case CL_INVALID_IMAGE_SIZE: return "CL_INVALID_IMAGE_SIZE";
    case CL_INVALID_SAMPLER: return "CL_INVALID_SAMPLER";
    case CL_INVALID_BINARY: return "CL_INVALID_BINARY";
    case CL_INVALID_BUILD_OPTIONS: return "CL_INVALID_BUILD_OPTIONS";
    case CL_INVALID_PROGRAM: return "CL_INVALID_PROGRAM";
    case CL_INVALID_PROGRAM_EXECUTABLE: return "CL_INVALID_PROGRAM_EXECUTABLE";
    case CL_INVALID_KERNEL_NAME: return "CL_INVALID_KERNEL_NAME";
    case CL_INVALID_KERNEL_DEFINITION: return "CL_INVALID_KERNEL_DEFINITION";
    case CL_INVALID_KERNEL: return "CL_INVALID_KERNEL";
    case CL_INVALID_ARG_INDEX: return "CL_INVALID_ARG_INDEX";
    case CL_INVALID_ARG_VALUE: return "CL_INVALID_ARG_VALUE";
    case CL_INVALID_ARG_SIZE: return "CL_INVALID_ARG_SIZE";
    case CL_INVALID_KERNEL_ARGS: return "CL_INVALID_KERNEL_ARGS";
    case CL_INVALID_WORK_DIMENSION: return "CL_INVALID_WORK_DIMENSION";
    case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
    case CL_INVALID_WORK_ITEM_SIZE: return "CL_INVALID_WORK_ITEM_SIZE";
    case CL_INVALID_GLOBAL_OFFSET: return "CL_INVALID_GLOBAL_OFFSET";
    case CL_INVALID_EVENT_WAIT_LIST: return "CL_INVALID_EVENT_WAIT_LIST";
    case CL_INVALID_EVENT: return "CL_INVALID_EVENT";
    case CL_INVALID_OPERATION: return "CL_INVALID_OPERATION";
    case CL_INVALID_GL_OBJECT: return "CL_INVALID_GL_OBJECT";
    case CL_INVALID_BUFFER_SIZE: return "CL_INVALID_BUFFER_SIZE";
    case CL_INVALID_MIP_LEVEL: return "CL_INVALID_MIP_LEVEL";
    case CL_INVALID_GLOBAL_WORK_SIZE: return "CL_INVALID_GLOBAL_WORK_SIZE";
    case CL_INVALID_PROPERTY: return "CL_INVALID_PROPERTY";
    case CL_INVALID_IMAGE_DESCRIPTOR: return "CL_INVALID_IMAGE_DESCRIPTOR";
    case CL_INVALID_COMPILER_OPTIONS: return "CL_INVALID_COMPILER_OPTIONS";
    case CL_INVALID_LINKER_OPTIONS: return "CL_INVALID_LINKER_OPTIONS";
    case CL_INVALID_DEVICE_PARTITION_COUNT: return "CL_INVALID_DEVICE_PARTITION_COUNT";
    case -1001: return "CL_PLATFORM_NOT_FOUND_KHR";
    default: return "unknown OpenCL error";
  }
}

template <typename T>
T Info(cl_device_id device, cl_device_info what) {
  T value{};
  clGetDeviceInfo(device, what, sizeof(T), &value, nullptr);
  return value;
}

// The one context of `candidate`'s device in this process, created at first use and kept
// until exit: CLBlast caches its compiled kernels per context in a process-wide cache that
// nothing empties, so a context per runtime would grow that cache with every runtime created.
// Thread-safe. Throws backplane::Exception (kBackendFailure) when it cannot be created.
cl_context ProcessContext(const DeviceCandidate& candidate, const std::string& description) {
  static std::mutex mutex;
  static std::map<cl_device_id, cl_context> contexts;
  std::lock_guard<std::mutex> lock(mutex);
  if (const auto found = contexts.find(candidate.device); found != contexts.end()) return found->second;
  const cl_context_properties properties[] = {
      CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(candidate.platform), 0};
  cl_int status = CL_SUCCESS;
  cl_device_id device = candidate.device;
  cl_context context = clCreateContext(properties, 1, &device, nullptr, nullptr, &status);
  CheckCl(status, ("clCreateContext on " + description).c_str());
  contexts.emplace(candidate.device, context);
  return context;
}

// The device a DeviceCandidate names, with its queue and programs (the context is the
// process's, see ProcessContext). Programs are kept (in memory) for the device's lifetime and
// released with it.
class ClDevice final : public OpenClDevice {
 public:
  ClDevice(const DeviceCandidate& candidate, const std::string& description, const std::filesystem::path& cache_dir,
           KernelShape kernels)
      : binary_cache_(cache_dir),
        key_fields_{"backplane-opencl-program-v1", candidate.platform_name, candidate.platform_version,
                    candidate.device_name, candidate.device_version, candidate.driver_version} {
    description_ = description;
    device_ = candidate.device;
    is_cpu_ = candidate.kind == backend::DeviceKind::kCpu;
    max_work_group_size_ = Info<std::size_t>(device_, CL_DEVICE_MAX_WORK_GROUP_SIZE);
    local_memory_bytes_ = static_cast<std::size_t>(Info<cl_ulong>(device_, CL_DEVICE_LOCAL_MEM_SIZE));
    compute_units_ = std::max<std::size_t>(Info<cl_uint>(device_, CL_DEVICE_MAX_COMPUTE_UNITS), 1);
    host_unified_memory_ = candidate.host_unified_memory;
    cpu_kernels_ = kernels == KernelShape::kCpu || (kernels == KernelShape::kAuto && is_cpu_);
    cache_directory_ = binary_cache_.Directory().string();
    cache_note_ = binary_cache_.FallbackNote();

    context_ = ProcessContext(candidate, description_);
    cl_int status = CL_SUCCESS;
    queue_ = clCreateCommandQueue(context_, device_, 0, &status);
    CheckCl(status, ("clCreateCommandQueue on " + description_).c_str());
  }

  ~ClDevice() override {
    if (queue_) clFinish(queue_);
    for (auto& [key, program] : programs_) clReleaseProgram(program);
    if (queue_) clReleaseCommandQueue(queue_);
  }

  cl_program DoGetProgram(const std::string& source, const std::string& build_options) override {
    const std::string memory_key = BinaryKey({source, build_options});
    std::lock_guard<std::mutex> lock(program_mutex_);
    if (const auto found = programs_.find(memory_key); found != programs_.end()) return found->second;

    std::vector<std::string> fields = key_fields_;
    fields.push_back(source);
    fields.push_back(build_options);
    const std::string disk_key = BinaryKey(fields);
    cl_program program = FromBinary(disk_key, build_options);
    if (!program) {
      program = FromSource(source, build_options);
      ++compiled_count_;
      binary_cache_.Store(disk_key, BinaryOf(program));
    }
    programs_.emplace(memory_key, program);
    return program;
  }

  std::size_t DoCompiledProgramCount() const override { return compiled_count_.load(); }

  std::optional<std::vector<unsigned char>> DoLoadDeviceData(const std::string& name) const override {
    return binary_cache_.Load(DataKey(name));
  }

  bool DoStoreDeviceData(const std::string& name, const std::vector<unsigned char>& bytes) const override {
    return binary_cache_.Store(DataKey(name), bytes);
  }

 private:
  // The disk key of device data `name`: the device's identity, then the name.
  std::string DataKey(const std::string& name) const {
    std::vector<std::string> fields = key_fields_;
    fields.push_back("device data");
    fields.push_back(name);
    return BinaryKey(fields);
  }

  // The program from the cached binary, or null when there is none or it does not build (a
  // corrupt or stale file: the caller compiles and overwrites it).
  cl_program FromBinary(const std::string& key, const std::string& build_options) {
    const auto binary = binary_cache_.Load(key);
    if (!binary) return nullptr;
    const std::size_t size = binary->size();
    const unsigned char* data = binary->data();
    cl_int binary_status = CL_SUCCESS;
    cl_int status = CL_SUCCESS;
    cl_program program = clCreateProgramWithBinary(context_, 1, &device_, &size, &data, &binary_status, &status);
    if (status != CL_SUCCESS || binary_status != CL_SUCCESS || !program) {
      if (program) clReleaseProgram(program);
      return nullptr;
    }
    if (clBuildProgram(program, 1, &device_, build_options.c_str(), nullptr, nullptr) != CL_SUCCESS) {
      clReleaseProgram(program);
      return nullptr;
    }
    return program;
  }

  cl_program FromSource(const std::string& source, const std::string& build_options) {
    const char* text = source.c_str();
    const std::size_t length = source.size();
    cl_int status = CL_SUCCESS;
    cl_program program = clCreateProgramWithSource(context_, 1, &text, &length, &status);
    CheckCl(status, ("clCreateProgramWithSource on " + description_).c_str());
    status = clBuildProgram(program, 1, &device_, build_options.c_str(), nullptr, nullptr);
    if (status != CL_SUCCESS) {
      std::string log;
      std::size_t log_size = 0;
      if (clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &log_size) == CL_SUCCESS &&
          log_size > 0) {
        log.resize(log_size);
        clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_LOG, log_size, log.data(), nullptr);
        while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
      }
      clReleaseProgram(program);
      throw Exception(ErrorCode::kBackendFailure,
                      "GpuOpenCl: building an OpenCL program on " + description_ + " with options '" +
                          build_options + "' failed with " + ClErrorName(status) + ":\n" + log);
    }
    return program;
  }

  // The program's binary for this device, or empty when the driver gives none.
  std::vector<unsigned char> BinaryOf(cl_program program) const {
    std::size_t size = 0;
    if (clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, nullptr) != CL_SUCCESS || size == 0) {
      return {};
    }
    std::vector<unsigned char> binary(size);
    unsigned char* pointers[] = {binary.data()};
    if (clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(pointers), pointers, nullptr) != CL_SUCCESS) return {};
    return binary;
  }

  ProgramBinaryCache binary_cache_;
  const std::vector<std::string> key_fields_;  // platform and device identity for the disk key
  std::mutex program_mutex_;                    // guards programs_ (held while building)
  std::map<std::string, cl_program> programs_;
  std::atomic<std::size_t> compiled_count_{0};
};

}  // namespace

OpenClDevice::~OpenClDevice() {
  for (ScratchEntry& entry : scratch_) {
    if (entry.mem) clReleaseMemObject(entry.mem);
  }
}

cl_mem OpenClDevice::ScratchBuffer(Scratch slot, std::size_t bytes) {
  ScratchEntry& entry = scratch_[static_cast<int>(slot)];
  if (entry.mem && entry.bytes >= bytes) return entry.mem;
  // Commands already enqueued on the old buffer keep it alive until they complete.
  if (entry.mem) clReleaseMemObject(entry.mem);
  entry = {};
  cl_int status = CL_SUCCESS;
  cl_mem mem = clCreateBuffer(context_, CL_MEM_READ_WRITE, std::max<std::size_t>(bytes, 1), nullptr, &status);
  CheckCl(status, ("clCreateBuffer (" + std::to_string(bytes) + " bytes of scratch)").c_str());
  entry = {mem, bytes};
  return mem;
}

cl_program OpenClDevice::GetProgram(const std::string& source, const std::string& build_options) {
  return DoGetProgram(source, build_options);
}

std::size_t OpenClDevice::CompiledProgramCount() const {
  return DoCompiledProgramCount();
}

std::optional<std::vector<unsigned char>> OpenClDevice::LoadDeviceData(const std::string& name) const {
  return DoLoadDeviceData(name);
}

bool OpenClDevice::StoreDeviceData(const std::string& name, const std::vector<unsigned char>& bytes) const {
  return DoStoreDeviceData(name, bytes);
}

std::string ClErrorName(cl_int status) {
  return std::string(ErrorSymbol(status)) + " (" + std::to_string(status) + ")";
}

void CheckCl(cl_int status, const char* what) {
  if (status == CL_SUCCESS) return;
  throw Exception(ErrorCode::kBackendFailure, std::string("GpuOpenCl: ") + what + " failed: " + ClErrorName(status));
}

std::unique_ptr<OpenClDevice> CreateOpenClDevice(const DeviceCandidate& candidate, const std::string& description,
                                                 const std::filesystem::path& cache_dir, KernelShape kernels) {
  return std::make_unique<ClDevice>(candidate, description, cache_dir, kernels);
}

std::unique_ptr<OpenClDevice> CreateChosenDevice(const OpenClSettings& settings) {
  const DeviceEnumeration& enumeration = EnumerateDevices();
  const DeviceChoice choice = ChooseDevice(enumeration, settings.policy);
  if (choice.index < 0) {
    throw Exception(ErrorCode::kUnsupported, "GpuOpenCl cannot run here: " + choice.reason);
  }
  return CreateOpenClDevice(enumeration.devices[static_cast<std::size_t>(choice.index)], choice.description,
                            settings.cache_dir, settings.kernels);
}

}  // namespace backplane::opencl
