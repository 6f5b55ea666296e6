// TrimOutput: the valid part of a bound-shaped output (ImportedModel::trimmed_outputs).
#include <backplane/onnx_importer.hpp>

#include <cstring>
#include <string>

namespace backplane::onnx {

void TrimOutput(const TrimmedOutput& trimmed, TensorInfo& info, std::vector<std::uint8_t>& data,
                const std::vector<std::uint8_t>& count_data) {
  const auto fail = [&](const std::string& why) {
    throw Exception(ErrorCode::kInternal, "output '" + trimmed.output + "': " + why);
  };
  std::vector<std::int64_t> dims = info.shape.Dims();
  if (trimmed.axis >= dims.size() || data.size() != info.NumBytes() || count_data.size() != sizeof(std::int64_t)) {
    fail("its tensor " + ToString(info.shape) + " (" + std::to_string(data.size()) + " bytes) or its count '" +
         trimmed.count + "' (" + std::to_string(count_data.size()) + " bytes) does not fit axis " +
         std::to_string(trimmed.axis) + " and i64 [1]");
  }
  std::int64_t count = 0;
  std::memcpy(&count, count_data.data(), sizeof count);
  if (count < 0 || count > dims[trimmed.axis]) {
    fail("its valid extent " + std::to_string(count) + " ('" + trimmed.count + "') is outside [0, " +
         std::to_string(dims[trimmed.axis]) + "], the bound along axis " + std::to_string(trimmed.axis));
  }
  std::size_t outer = 1, inner = SizeOf(info.type);
  for (std::size_t i = 0; i < trimmed.axis; ++i) outer *= static_cast<std::size_t>(dims[i]);
  for (std::size_t i = trimmed.axis + 1; i < dims.size(); ++i) inner *= static_cast<std::size_t>(dims[i]);
  const std::size_t from = static_cast<std::size_t>(dims[trimmed.axis]) * inner;
  const std::size_t to = static_cast<std::size_t>(count) * inner;
  for (std::size_t o = 0; o < outer; ++o) {  // rows move toward the front (to <= from)
    if (to) std::memmove(data.data() + o * to, data.data() + o * from, to);
  }
  dims[trimmed.axis] = count;
  info.shape = TensorShape(dims);
  data.resize(outer * to);
}

}  // namespace backplane::onnx
