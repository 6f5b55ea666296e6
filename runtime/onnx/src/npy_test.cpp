// ReadNpy / WriteNpy: round trips, files numpy wrote, and every malformed-file error.
#include <backplane/npy.hpp>

#include "model_check.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>

namespace {

using backplane::DataType;
using backplane::ErrorCode;
using backplane::Exception;
using backplane::NpyArray;
using backplane::ReadNpy;
using backplane::TensorShape;
using backplane::WriteNpy;

class TempFolder {
 public:
  TempFolder() {
    std::random_device random;
    path_ = std::filesystem::temp_directory_path() / ("backplane_npy_test_" + std::to_string(random()));
    std::filesystem::create_directories(path_);
  }
  ~TempFolder() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  std::string File(const std::string& name) const { return (path_ / name).string(); }
  std::string Write(const std::string& name, const std::string& bytes) const {
    std::ofstream(File(name), std::ios::binary).write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    return File(name);
  }

 private:
  std::filesystem::path path_;
};

// A v1.0 .npy with `header` (padded) and `data`.
std::string NpyBytes(std::string header, const std::string& data) {
  while ((10 + header.size() + 1) % 64 != 0) header += ' ';
  header += '\n';
  std::string bytes = std::string("\x93NUMPY\x01\x00", 8);
  bytes += static_cast<char>(header.size() & 0xff);
  bytes += static_cast<char>(header.size() >> 8);
  return bytes + header + data;
}

Exception ReadError(const std::string& path) {
  try {
    ReadNpy(path);
  } catch (const Exception& error) {
    return error;
  }
  FAIL("ReadNpy(" << path << ") did not throw");
  throw;
}

bool Contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("reads a float32 array numpy wrote") {
  const NpyArray array = ReadNpy(backplane::onnx::testing::DataPath("mlp.input.npy"));
  CHECK(array.type == DataType::kFloat32);
  CHECK(array.shape == TensorShape{4, 64});
  CHECK(array.data.size() == 4 * 64 * 4);
}

TEST_CASE("round trip of every type, scalars and rank 1 included") {
  const TempFolder folder;
  const std::vector<std::pair<DataType, TensorShape>> cases{
      {DataType::kFloat32, {2, 3}}, {DataType::kFloat16, {5}}, {DataType::kInt32, {1, 1, 4}},
      {DataType::kInt64, {}},       {DataType::kBool, {3, 2}}, {DataType::kFloat32, {0, 4}}};
  for (const auto& [type, shape] : cases) {
    NpyArray array;
    array.type = type;
    array.shape = shape;
    array.data.resize(static_cast<std::size_t>(shape.NumElements()) * backplane::SizeOf(type));
    for (std::size_t i = 0; i < array.data.size(); ++i) array.data[i] = static_cast<std::uint8_t>(type == DataType::kBool ? i % 2 : i * 7);
    const std::string path = folder.File("a.npy");
    WriteNpy(path, array);
    CHECK(std::filesystem::file_size(path) % 64 == array.data.size() % 64);  // data starts 64-aligned
    const NpyArray back = ReadNpy(path);
    CHECK(back.type == array.type);
    CHECK(back.shape == array.shape);
    CHECK(back.data == array.data);
  }
}

TEST_CASE("big-endian files are converted") {
  const TempFolder folder;
  const std::string path = folder.Write("be.npy", NpyBytes("{'descr': '>i4', 'fortran_order': False, 'shape': (2,), }",
                                                           std::string("\0\0\0\x01\0\0\x01\0", 8)));
  const NpyArray array = ReadNpy(path);
  std::int32_t values[2];
  std::memcpy(values, array.data.data(), sizeof values);
  CHECK(values[0] == 1);
  CHECK(values[1] == 256);
}

TEST_CASE("malformed files give errors naming the file") {
  const TempFolder folder;
  SUBCASE("missing") {
    const auto error = ReadError(folder.File("nothing.npy"));
    CHECK(error.code() == ErrorCode::kNotFound);
    CHECK(Contains(error.what(), "nothing.npy"));
  }
  SUBCASE("not npy") {
    const auto error = ReadError(folder.Write("text.npy", "hello, this is not numpy"));
    CHECK(error.code() == ErrorCode::kInvalidArgument);
    CHECK(Contains(error.what(), "no \\x93NUMPY magic"));
  }
  SUBCASE("truncated data") {
    const auto error = ReadError(folder.Write("short.npy", NpyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", "12345678")));
    CHECK(error.code() == ErrorCode::kInvalidArgument);
    CHECK(Contains(error.what(), "the data is 8 bytes, but shape [4] of '<f4' needs 16"));
  }
  SUBCASE("hostile shape: refused before allocating") {
    const auto error = ReadError(folder.Write("huge.npy", NpyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (1099511627776, 1099511627776), }", "")));
    CHECK(error.code() == ErrorCode::kInvalidArgument);
    CHECK(Contains(error.what(), "huge.npy"));
  }
  SUBCASE("header length beyond the file") {
    std::string bytes = NpyBytes("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }", "1234");
    bytes[8] = '\xff';
    bytes[9] = '\xff';
    const auto error = ReadError(folder.Write("header.npy", bytes));
    CHECK(Contains(error.what(), "does not fit the file"));
  }
  SUBCASE("malformed header") {
    const auto error = ReadError(folder.Write("dict.npy", NpyBytes("{'descr': '<f4', 'shape': (1,) ", "1234")));
    CHECK(error.code() == ErrorCode::kInvalidArgument);
    CHECK(Contains(error.what(), "malformed .npy header"));
  }
  SUBCASE("fortran order") {
    const auto error = ReadError(folder.Write("f.npy", NpyBytes("{'descr': '<f4', 'fortran_order': True, 'shape': (1,), }", "1234")));
    CHECK(error.code() == ErrorCode::kUnsupported);
    CHECK(Contains(error.what(), "fortran_order"));
  }
  SUBCASE("unsupported dtype") {
    const auto error = ReadError(folder.Write("c8.npy", NpyBytes("{'descr': '<c8', 'fortran_order': False, 'shape': (1,), }", "12345678")));
    CHECK(error.code() == ErrorCode::kUnsupported);
    CHECK(Contains(error.what(), "'<c8'"));
  }
}

TEST_CASE("WriteNpy checks the data size and the type") {
  const TempFolder folder;
  NpyArray array;
  array.shape = TensorShape{3};
  array.data.resize(8);
  try {
    WriteNpy(folder.File("bad.npy"), array);
    FAIL("no error");
  } catch (const Exception& error) {
    CHECK(error.code() == ErrorCode::kInvalidArgument);
    CHECK(Contains(error.what(), "8 bytes of data for f32 [3], which needs 12"));
  }
  array.type = DataType::kBFloat16;
  array.data.resize(6);
  CHECK_THROWS_AS(WriteNpy(folder.File("bf16.npy"), array), Exception);
}
