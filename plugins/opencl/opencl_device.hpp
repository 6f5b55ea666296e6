// OpenClDevice: the one OpenCL device a runtime's GpuOpenCl backend runs on, with its context,
// its command queue and its program cache.
//
// Ownership and lifetime: created by the backend context (one per runtime, see
// opencl_backend_context.hpp) and owned by it; workload factories, workloads and tensor
// handles keep a plain pointer, valid because the runtime keeps backend contexts alive longer
// than every network it loaded. Thread-safe: every method may be called from several
// execution contexts at once.
#pragma once

#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <cstddef>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace backplane::opencl {

class OpenClDevice {
 public:
  virtual ~OpenClDevice();

  cl_context Context() const { return context_; }
  cl_device_id Device() const { return device_; }
  // The device's in-order queue. Every command of every network goes through it, so commands
  // enqueued by one execution context complete in order and a blocking map waits for them.
  cl_command_queue Queue() const { return queue_; }
  // "NVIDIA H100 (NVIDIA CUDA, OpenCL 3.0)" / "pthread-Intel(R) Xeon(R) (Portable Computing
  // Language, OpenCL 3.0 PoCL ...)": for messages and sdk-info.
  const std::string& Description() const { return description_; }
  bool IsCpu() const { return is_cpu_; }
  std::size_t MaxWorkGroupSize() const { return max_work_group_size_; }
  // CL_DEVICE_MAX_COMPUTE_UNITS: streaming multiprocessors of a GPU, threads of PoCL.
  std::size_t ComputeUnits() const { return compute_units_; }
  std::size_t LocalMemoryBytes() const { return local_memory_bytes_; }
  // CL_DEVICE_HOST_UNIFIED_MEMORY: the device reads host memory in place, so buffers may wrap
  // host pointers (CL_MEM_USE_HOST_PTR) without a copy.
  bool HostUnifiedMemory() const { return host_unified_memory_; }
  // The compute-heavy ops run the kernels shaped for CPUs (GpuOpenCl's register-tiled GEMM
  // instead of CLBlast, a row per work-item), as the settings' KernelShape chose for this device.
  bool CpuKernels() const { return cpu_kernels_; }
  // The folder program binaries are cached in (empty when nothing is cached on disk), and why
  // it is not the configured one (empty when it is): for messages and sdk-info.
  const std::string& ProgramCacheDirectory() const { return cache_directory_; }
  const std::string& ProgramCacheNote() const { return cache_note_; }

  // The program built from `source` with `build_options` (e.g. "-cl-fast-relaxed-math"):
  // from memory when built before, else from the on-disk binary cache (keyed by source hash,
  // options, platform, device and driver version), else compiled and then cached. The program
  // is owned by this device and lives as long as it. Throws backplane::Exception
  // (kBackendFailure) with the build log when the source does not compile.
  cl_program GetProgram(const std::string& source, const std::string& build_options);

  // Data about this device kept beside the program binaries (same folder, file format and
  // integrity check), keyed by the device's identity (platform, device, driver) and `name`:
  // CLBlast's tuned parameters. Load gives nullopt when there is none or the file is corrupt;
  // Store returns false when nothing could be written. Thread-safe; never throw except on
  // out-of-memory.
  std::optional<std::vector<unsigned char>> LoadDeviceData(const std::string& name) const;
  bool StoreDeviceData(const std::string& name, const std::vector<unsigned char>& bytes) const;

  // Number of programs compiled from source (not from either cache) so far: what the test
  // "loading the same network twice compiles nothing" checks.
  std::size_t CompiledProgramCount() const;

  // Serializes the clSetKernelArg + clEnqueueNDRangeKernel pairs of workloads that share a
  // cl_kernel across execution contexts (kernel arguments are kernel-object state), CLBlast's
  // calls, and the sequences of launches that share a scratch buffer. Recursive: a workload
  // holds it over such a sequence while each launch in it takes it again.
  std::recursive_mutex& LaunchMutex() const { return launch_mutex_; }

  // The scratch buffers of the launches enqueued under LaunchMutex: one per slot, grown to the
  // largest size asked for (so bounded by the largest layer) and kept for the device's
  // lifetime. The caller must hold LaunchMutex from this call until its last command using
  // the buffer is enqueued: the queue is in order, so a later holder's commands run after
  // those. Throws backplane::Exception (kBackendFailure) when the buffer cannot be allocated.
  enum class Scratch { kColumns, kBlasTemp, kPartials };
  cl_mem ScratchBuffer(Scratch slot, std::size_t bytes);

 protected:
  OpenClDevice() = default;
  // What GetProgram and CompiledProgramCount do: implemented by the concrete device
  // (opencl_device.cpp, created through opencl_device_creation.hpp).
  virtual cl_program DoGetProgram(const std::string& source, const std::string& build_options) = 0;
  virtual std::size_t DoCompiledProgramCount() const = 0;
  virtual std::optional<std::vector<unsigned char>> DoLoadDeviceData(const std::string& name) const = 0;
  virtual bool DoStoreDeviceData(const std::string& name, const std::vector<unsigned char>& bytes) const = 0;

  cl_context context_ = nullptr;
  cl_device_id device_ = nullptr;
  cl_command_queue queue_ = nullptr;
  std::string description_;
  bool is_cpu_ = false;
  std::size_t max_work_group_size_ = 0;
  std::size_t compute_units_ = 1;
  std::size_t local_memory_bytes_ = 0;
  bool host_unified_memory_ = false;
  bool cpu_kernels_ = false;
  std::string cache_directory_;
  std::string cache_note_;
  mutable std::recursive_mutex launch_mutex_;

 private:
  struct ScratchEntry {
    cl_mem mem = nullptr;
    std::size_t bytes = 0;
  };
  ScratchEntry scratch_[3];  // by Scratch; guarded by launch_mutex_, released by ~OpenClDevice
};

// Throws backplane::Exception (kBackendFailure) naming `what` and the OpenCL error (by name:
// "CL_OUT_OF_RESOURCES (-5)") when `status` is not CL_SUCCESS.
void CheckCl(cl_int status, const char* what);
// "CL_OUT_OF_RESOURCES (-5)".
std::string ClErrorName(cl_int status);

}  // namespace backplane::opencl
