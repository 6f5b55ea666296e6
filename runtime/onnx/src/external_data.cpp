#include "external_data.hpp"

#include <backplane/exception.hpp>
#include <backplane/path_text.hpp>

#include <onnx/onnx_pb.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <set>

namespace backplane::onnx {

namespace {

namespace fs = std::filesystem;

// At most 80 characters of model text in a message, control characters as '?'.
std::string Quoted(const std::string& text) {
  constexpr std::size_t kMax = 80;
  std::string quoted = text.size() <= kMax ? text : text.substr(0, kMax) + "...";
  auto control = [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; };
  std::replace_if(quoted.begin(), quoted.end(), control, '?');
  return "'" + quoted + "'";
}

// A non-negative decimal integer that fits 64 bits, or an error naming the key.
std::uint64_t ParseSize(const std::string& key, const std::string& text) {
  std::uint64_t value = 0;
  const char* end = text.data() + text.size();
  const auto result = std::from_chars(text.data(), end, value);
  if (text.empty() || result.ec != std::errc() || result.ptr != end) {
    throw Exception(ErrorCode::kInvalidArgument,
                    "external_data " + key + " " + Quoted(text) + " is not a non-negative decimal integer below 2^64");
  }
  return value;
}

// True when `path` is `folder` or inside it (both canonical).
bool IsInside(const fs::path& path, const fs::path& folder) {
  const fs::path relative = path.lexically_relative(folder);
  return !relative.empty() && *relative.begin() != "..";
}

// The external_data entries of one tensor.
struct Entries {
  std::string location;
  std::optional<std::uint64_t> offset;
  std::optional<std::uint64_t> length;
};

Entries ParseEntries(const ::onnx::TensorProto& tensor) {
  Entries entries;
  std::set<std::string> keys;
  for (const auto& entry : tensor.external_data()) {
    const std::string& key = entry.key();
    if (!keys.insert(key).second) {
      throw Exception(ErrorCode::kInvalidArgument, "external_data has the key " + Quoted(key) + " twice");
    }
    if (key == "location") {
      entries.location = entry.value();
    } else if (key == "offset") {
      entries.offset = ParseSize(key, entry.value());
    } else if (key == "length") {
      entries.length = ParseSize(key, entry.value());
    } else if (key != "checksum") {  // checksum (SHA-1 of the bytes): accepted, not verified
      throw Exception(ErrorCode::kInvalidArgument, "external_data has the unknown key " + Quoted(key) +
                                                       " (known: location, offset, length, checksum)");
    }
  }
  if (entries.location.empty()) {
    throw Exception(ErrorCode::kInvalidArgument,
                    "its data is external (data_location EXTERNAL) but external_data has no location");
  }
  return entries;
}

// The canonical path of `location` in `model_folder`, checked to be a regular file inside it.
// `prefix` starts every message.
fs::path ResolveInside(const fs::path& model_folder, const std::string& location, const std::string& prefix) {
  auto invalid = [&](const std::string& why) { throw Exception(ErrorCode::kInvalidArgument, prefix + why); };
  // Lexically: relative, and its ".." components never above the folder.
  if (location.find('\0') != std::string::npos) invalid("the location contains a NUL character");
  const fs::path relative = PathFromUtf8(location);
  if (relative.has_root_path()) {
    invalid("the location is an absolute path; external data files must be inside the model's folder (" +
            PathToUtf8(model_folder) + ")");
  }
  int depth = 0;
  for (const auto& part : relative) {
    if (part == "..") {
      if (--depth < 0) {
        invalid("the location leaves the model's folder through '..'; external data files must be inside it");
      }
    } else if (!part.empty() && part != ".") {
      ++depth;
    }
  }
  // On disk: exists, resolves (symbolic links followed) inside the folder, is a regular file.
  const fs::path joined = model_folder / relative;
  std::error_code error;
  const auto status = fs::status(joined, error);
  if (!fs::exists(status)) {
    const bool missing = !error || error == std::errc::no_such_file_or_directory;
    throw Exception(ErrorCode::kNotFound,
                    prefix + (missing ? "no such file (" + PathToUtf8(joined) + ")"
                                      : "cannot read " + PathToUtf8(joined) + ": " + error.message()));
  }
  const fs::path folder = fs::canonical(model_folder, error);
  const fs::path file = error ? fs::path() : fs::canonical(joined, error);
  if (error) {
    throw Exception(ErrorCode::kNotFound, prefix + "cannot resolve " + PathToUtf8(joined) + ": " + error.message());
  }
  if (!IsInside(file, folder)) {
    invalid("the location resolves to " + PathToUtf8(file) + ", outside the model's folder " + PathToUtf8(folder) +
            " (through a symbolic link)");
  }
  if (!fs::is_regular_file(status)) invalid("not a regular file (" + PathToUtf8(file) + ")");
  return file;
}

}  // namespace

ExternalDataFolder ExternalDataFolder::OfModel(const std::string& model_path) {
  ExternalDataFolder result;
  const fs::path folder = PathFromUtf8(model_path).parent_path();
  result.folder_ = folder.empty() ? fs::path(".") : folder;
  return result;
}

std::vector<std::uint8_t> ExternalDataFolder::Read(const ::onnx::TensorProto& tensor,
                                                   std::uint64_t expected_bytes) const {
  const Entries entries = ParseEntries(tensor);
  const std::string prefix = "external data " + Quoted(entries.location) + ": ";
  auto invalid = [&](const std::string& why) { throw Exception(ErrorCode::kInvalidArgument, prefix + why); };
  if (!folder_) {
    invalid("a model imported from memory has no folder to read external data from; import it from its file "
            "(ImportModel(path)), with the data file beside it");
  }
  if (!tensor.raw_data().empty()) invalid("the tensor has both external data and raw_data");
  const auto& length = entries.length;
  if (length && *length != expected_bytes) {
    invalid("length is " + std::to_string(*length) + " bytes, but the tensor's data type and dims need " +
            std::to_string(expected_bytes));
  }
  const fs::path file = ResolveInside(*folder_, entries.location, prefix);
  std::error_code error;
  const std::uint64_t size = fs::file_size(file, error);
  if (error) throw Exception(ErrorCode::kNotFound, prefix + "cannot read " + PathToUtf8(file) + ": " + error.message());

  // The range: inside the file, and exactly the tensor's bytes.
  const std::uint64_t start = entries.offset.value_or(0);
  if (start > size) {
    invalid("offset " + std::to_string(start) + " is beyond the end of the file (" + std::to_string(size) + " bytes)");
  }
  if (length && *length > size - start) {
    invalid("offset " + std::to_string(start) + " + length " + std::to_string(*length) +
            " is beyond the end of the file (" + std::to_string(size) + " bytes)");
  }
  if (!length && size - start != expected_bytes) {
    invalid("no length given, and the " + std::to_string(size - start) + " bytes from offset " +
            std::to_string(start) + " to the end of the file are not the " + std::to_string(expected_bytes) +
            " bytes the tensor's data type and dims need");
  }

  std::vector<std::uint8_t> bytes(static_cast<std::size_t>(expected_bytes));
  std::ifstream stream(file, std::ios::binary);
  if (stream) stream.seekg(static_cast<std::streamoff>(start));
  if (!stream || (!bytes.empty() && !stream.read(reinterpret_cast<char*>(bytes.data()),
                                                 static_cast<std::streamsize>(bytes.size())))) {
    throw Exception(ErrorCode::kNotFound, prefix + "cannot read " + std::to_string(expected_bytes) +
                                              " bytes at offset " + std::to_string(start) + " of " + PathToUtf8(file));
  }
  return bytes;
}

}  // namespace backplane::onnx
