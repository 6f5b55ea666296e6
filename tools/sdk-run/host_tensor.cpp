#include "host_tensor.hpp"

#include <backplane/element_types.hpp>

namespace backplane::sdk_run {

HostTensor HostTensor::Zeros(std::string name, const TensorInfo& info) {
  return {std::move(name), info, std::vector<std::uint8_t>(info.NumBytes(), 0)};
}

std::vector<double> AsDoubles(const HostTensor& tensor) {
  std::vector<double> values(static_cast<std::size_t>(tensor.info.shape.NumElements()));
  VisitElementType(tensor.info.type, [&](auto element) {
    using T = decltype(element);
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = ConvertElement<double>(LoadElement<T>(tensor.data.data(), i));
  });
  return values;
}

std::string Describe(const TensorInfo& info) {
  return std::string(ToString(info.type)) + " " + ToString(info.shape);
}

}  // namespace backplane::sdk_run
