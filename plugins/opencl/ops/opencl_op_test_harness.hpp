// Test-only: runs one GpuOpenCl op outside the runtime, on the test device, and compares it
// with CpuRef's op run on the same layer (through CpuRef's op table and workloads, see
// plugins/reference/ops/op_test_harness.hpp). Inputs that are not constant are uploaded into
// OpenClBufferHandles; constant inputs arrive as host handles, as the runtime passes them.
// The device is created once per test binary (each kernel program is then built once).
#pragma once

#include "../opencl_buffer_handle.hpp"
#include "../opencl_test_device.hpp"
#include "op_test_harness.hpp"
#include "op_test_values.hpp"
#include "opencl_ops.hpp"

#include <backplane/backend/host_tensor_handle.hpp>
#include <backplane/exception.hpp>

#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <exception>
#include <thread>
#include <memory>
#include <string>
#include <vector>

namespace backplane::opencl::testing {

using reference::testing::HostTensor;
using reference::testing::Random;

// The device every op test runs on, or null (after a message saying why the test is skipped)
// when this machine has no usable OpenCL device.
inline std::shared_ptr<OpenClDevice> OpsDevice() {
  static TempFolder folder;
  static const std::shared_ptr<OpenClDevice> device = [] {
    const char* cache = std::getenv("BACKPLANE_OPENCL_CACHE_DIR");
    return std::shared_ptr<OpenClDevice>(TestDevice(cache && *cache ? std::filesystem::path(cache) : folder.path()));
  }();
  if (!device) MESSAGE("SKIPPED: no usable OpenCL device for the op tests");
  return device;
}

// Whether GpuOpenCl accepts the layer; `reason` gets why not.
template <typename Descriptor>
bool Supported(const Descriptor& descriptor, const std::vector<HostTensor>& inputs,
               const std::vector<TensorInfo>& outputs, std::string& reason) {
  reference::testing::TestLayer layer(Descriptor::kType, &descriptor, inputs, outputs);
  return Ops().Supporting(layer, reason) != nullptr;
}

// Checks support (throws with the reason if unsupported), creates the workload, runs it once
// on `device` and reads the outputs back.
template <typename Descriptor>
std::vector<HostTensor> RunOpenClOp(const std::shared_ptr<OpenClDevice>& device, const Descriptor& descriptor,
                                    const std::vector<HostTensor>& inputs, const std::vector<TensorInfo>& outputs,
                                    int runs = 1) {
  reference::testing::TestLayer layer(Descriptor::kType, &descriptor, inputs, outputs);
  const auto workload = Ops().SupportingOrThrow(layer).create(layer, *device);

  std::vector<std::unique_ptr<backend::ITensorHandle>> input_handles, output_handles;
  for (const auto& input : inputs) {
    if (input.constant) {
      input_handles.push_back(std::make_unique<backend::HostTensorHandle>(
          input.info, const_cast<std::uint8_t*>(input.bytes.data())));
      continue;
    }
    auto handle = CreateBufferHandle(device, input.info);
    if (!input.bytes.empty()) std::memcpy(handle->Map(), input.bytes.data(), input.bytes.size());
    handle->Unmap();
    input_handles.push_back(std::move(handle));
  }
  for (const auto& info : outputs) output_handles.push_back(CreateBufferHandle(device, info));
  std::vector<backend::ITensorHandle*> in, out;
  for (auto& handle : input_handles) in.push_back(handle.get());
  for (auto& handle : output_handles) out.push_back(handle.get());
  backend::WorkloadArgs args{in, out, nullptr};
  for (int run = 0; run < runs; ++run) workload->Execute(args);

  std::vector<HostTensor> results;
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    HostTensor result{outputs[i], std::vector<std::uint8_t>(outputs[i].NumBytes())};
    const void* mapped = output_handles[i]->Map();
    if (!result.bytes.empty()) std::memcpy(result.bytes.data(), mapped, result.bytes.size());
    output_handles[i]->Unmap();
    results.push_back(std::move(result));
  }
  return results;
}

// Creates the workload once and executes it from `threads` threads at once, `runs` times each,
// every thread with its own input and output buffers (as execution contexts have); returns each
// thread's outputs. Throws what the first failing thread threw.
template <typename Descriptor>
std::vector<std::vector<HostTensor>> RunConcurrently(const std::shared_ptr<OpenClDevice>& device,
                                                     const Descriptor& descriptor,
                                                     const std::vector<HostTensor>& inputs,
                                                     const std::vector<TensorInfo>& outputs, int threads, int runs) {
  const OpKernel* op = Ops().Find(Descriptor::kType);
  REQUIRE(op != nullptr);
  reference::testing::TestLayer layer(Descriptor::kType, &descriptor, inputs, outputs);
  const auto workload = op->create(layer, *device);
  std::vector<std::vector<HostTensor>> results(static_cast<std::size_t>(threads));
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(threads));
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      try {
        std::vector<std::unique_ptr<backend::ITensorHandle>> in_handles, out_handles;
        for (const auto& input : inputs) {
          auto handle = CreateBufferHandle(device, input.info);
          if (!input.bytes.empty()) std::memcpy(handle->Map(), input.bytes.data(), input.bytes.size());
          handle->Unmap();
          in_handles.push_back(std::move(handle));
        }
        for (const auto& info : outputs) out_handles.push_back(CreateBufferHandle(device, info));
        std::vector<backend::ITensorHandle*> in, out;
        for (auto& handle : in_handles) in.push_back(handle.get());
        for (auto& handle : out_handles) out.push_back(handle.get());
        const backend::WorkloadArgs args{in, out, nullptr};
        for (int run = 0; run < runs; ++run) workload->Execute(args);
        for (std::size_t i = 0; i < outputs.size(); ++i) {
          HostTensor result{outputs[i], std::vector<std::uint8_t>(outputs[i].NumBytes())};
          std::memcpy(result.bytes.data(), out_handles[i]->Map(), result.bytes.size());
          out_handles[i]->Unmap();
          results[static_cast<std::size_t>(t)].push_back(std::move(result));
        }
      } catch (...) {
        errors[static_cast<std::size_t>(t)] = std::current_exception();
      }
    });
  }
  for (auto& thread : pool) thread.join();
  for (const auto& error : errors) {
    if (error) std::rethrow_exception(error);
  }
  return results;
}

// The bytes as space-separated hex pairs, for messages.
inline std::string HexBytes(const std::vector<std::uint8_t>& bytes) {
  static const char kDigits[] = "0123456789abcdef";
  std::string text;
  for (const std::uint8_t byte : bytes) {
    if (!text.empty()) text += ' ';
    text += kDigits[byte >> 4];
    text += kDigits[byte & 15];
  }
  return text;
}

// Runs the layer on GpuOpenCl and on CpuRef and checks every output: f32 within `relative` of
// the largest expected magnitude, other types exactly. Does nothing (the device already said
// why) without a device.
template <typename Descriptor>
void CheckMatchesReference(const Descriptor& descriptor, const std::vector<HostTensor>& inputs,
                           const std::vector<TensorInfo>& outputs, double relative = 1e-4) {
  const auto device = OpsDevice();
  if (!device) return;
  const auto expected = reference::testing::RunOp(descriptor, inputs, outputs);
  {
    CAPTURE(device->Description());
    const auto actual = RunOpenClOp(device, descriptor, inputs, outputs);
    REQUIRE(actual.size() == expected.size());
    for (std::size_t i = 0; i < actual.size(); ++i) {
      CAPTURE(i);
      if (outputs[i].type == DataType::kFloat32) {
        const auto e = expected[i].template As<float>();
        reference::testing::CheckClose(actual[i].template As<float>(), std::vector<double>(e.begin(), e.end()),
                                       relative);
      } else {
        // As hex text, so that a mismatch shows both values (doctest cannot print byte vectors).
        CAPTURE(std::string(ToString(outputs[i].type)));
        CHECK(HexBytes(actual[i].bytes) == HexBytes(expected[i].bytes));
      }
    }
  }
}

// The reason GpuOpenCl refuses the layer (CHECKs that it does).
template <typename Descriptor>
std::string RefusalReason(const Descriptor& descriptor, const std::vector<HostTensor>& inputs,
                          const std::vector<TensorInfo>& outputs) {
  std::string reason;
  CHECK_FALSE(Supported(descriptor, inputs, outputs, reason));
  return reason;
}

inline HostTensor F32(const TensorShape& shape, unsigned seed, bool constant = false) {
  return HostTensor::F32(shape, Random(shape.NumElements(), seed), constant);
}

}  // namespace backplane::opencl::testing
