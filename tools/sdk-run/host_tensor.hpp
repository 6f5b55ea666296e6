// A named tensor in host memory: an input sdk-run feeds, or an output it receives.
#pragma once

#include <backplane/types.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace backplane::sdk_run {

// Value type. `data` holds info.NumBytes() bytes, densely laid out, outermost dimension first;
// std::vector's allocation is aligned for every element type.
struct HostTensor {
  std::string name;
  TensorInfo info;
  std::vector<std::uint8_t> data;

  // A tensor of `info` filled with zero bytes.
  static HostTensor Zeros(std::string name, const TensorInfo& info);

  ConstTensorView View() const { return {info, data.data()}; }
  TensorView MutableView() { return {info, data.data()}; }
};

// Every element as a double (f16 and bf16 widened, bool as 0/1), for statistics and comparison.
std::vector<double> AsDoubles(const HostTensor& tensor);

// "f32 [1,3,224,224]"
std::string Describe(const TensorInfo& info);

}  // namespace backplane::sdk_run
