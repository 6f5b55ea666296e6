// Hostile inputs (issue 18): .npy files made to break the reader (the format tools read input
// tensors in). Each must end in a clear error naming the file and the problem, or in the right
// array, without allocating from an unchecked size and without echoing unbounded input.
// Everything goes through the public API: ReadNpyFromMemory and ReadNpy.
#include <backplane/exception.hpp>
#include <backplane/npy.hpp>

#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace {

using backplane::ErrorCode;
using backplane::Exception;
using backplane::ReadNpyFromMemory;

// A .npy file: magic, version, header length (2 bytes in 1.0, 4 in 2.0), header, data.
// `declared_length` overrides the header length field when not negative.
std::string Npy(const std::string& header, const std::string& data, int version = 1,
                std::int64_t declared_length = -1) {
  std::string file = "\x93NUMPY";
  file += static_cast<char>(version);
  file += '\0';
  const std::uint64_t length = declared_length >= 0 ? static_cast<std::uint64_t>(declared_length) : header.size();
  for (int i = 0; i < (version == 1 ? 2 : 4); ++i) file += static_cast<char>((length >> (8 * i)) & 0xff);
  return file + header + data;
}

std::string Header(const std::string& descr, const std::string& shape, const std::string& order = "False") {
  return "{'descr': '" + descr + "', 'fortran_order': " + order + ", 'shape': " + shape + ", }\n";
}

struct Failure {
  ErrorCode code = ErrorCode::kInternal;
  std::string message;
};

Failure FailureOf(const std::string& bytes) {
  try {
    ReadNpyFromMemory(bytes.data(), bytes.size(), "in.npy");
  } catch (const Exception& error) {
    return {error.code(), error.what()};
  }
  return {ErrorCode::kInternal, "no error"};
}

struct Case {
  const char* name;
  std::string bytes;
  ErrorCode code;
  std::string fragment;
};

TEST_CASE("hostile inputs: malformed .npy files are refused with the file and the problem named") {
  const std::string huge_key(200 * 1024, 'k');
  const std::vector<Case> cases{
      {"bad magic", "\x93NUMPZ\x01\x00\x10\x00" + std::string(16, ' '), ErrorCode::kInvalidArgument,
       "in.npy: not a .npy file (no \\x93NUMPY magic)"},
      {"too short", "\x93NUM", ErrorCode::kInvalidArgument, "in.npy: not a .npy file (too short: 4 bytes)"},
      {"unsupported dtype", Npy(Header("<c8", "(1,)"), std::string(8, '\0')), ErrorCode::kUnsupported,
       "in.npy: dtype '<c8' is not supported"},
      {"fortran order", Npy(Header("<f4", "(2, 2)", "True"), std::string(16, '\0')), ErrorCode::kUnsupported,
       "in.npy: fortran_order True is not supported"},
      {"shape product overflow", Npy(Header("<f4", "(1099511627776, 1099511627776)"), ""), ErrorCode::kInvalidArgument,
       "shape [1099511627776,1099511627776] has more elements than a 64-bit count holds"},
      {"byte size overflow", Npy(Header("<i8", "(4611686018427387904,)"), ""), ErrorCode::kInvalidArgument,
       "has more bytes than a 64-bit size holds"},
      {"a dimension beyond int64", Npy(Header("<f4", "(99999999999999999999,)"), ""), ErrorCode::kInvalidArgument,
       "a dimension is too large"},
      {"header longer than the file", Npy(Header("<f4", "(1,)"), "", 1, 1000), ErrorCode::kInvalidArgument,
       "in.npy: the .npy header length 1000 does not fit the file"},
      {"header over the cap", Npy("", "", 2, std::int64_t{1} << 30), ErrorCode::kInvalidArgument,
       "in.npy: the .npy header of 1073741824 bytes is over the 1048576-byte cap"},
      {"truncated data", Npy(Header("<f4", "(10,)"), std::string(8, '\0')), ErrorCode::kInvalidArgument,
       "the data is 8 bytes, but shape [10] of '<f4' needs 40"},
      {"trailing data", Npy(Header("<f4", "(1,)"), std::string(8, '\0')), ErrorCode::kInvalidArgument,
       "the data is 8 bytes, but shape [1] of '<f4' needs 4"},
      {"a 200 KB key", Npy("{'" + huge_key + "': 1}", "", 2), ErrorCode::kInvalidArgument, "unknown key 'kkkk"},
      {"unterminated dict", Npy("{'descr': '<f4', ", ""), ErrorCode::kInvalidArgument, "malformed .npy header"},
      {"negative dimension", Npy(Header("<f4", "(-1,)"), ""), ErrorCode::kInvalidArgument, "expected a dimension"},
      {"unknown version", Npy(Header("<f4", "(1,)"), std::string(4, '\0'), 9), ErrorCode::kUnsupported,
       ".npy format version 9.0 is not supported"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.name);
    const Failure failure = FailureOf(c.bytes);
    CAPTURE(failure.message);
    CHECK(failure.code == c.code);
    CHECK(failure.message.find(c.fragment) != std::string::npos);
    // Messages quote at most 80 characters of what the file holds.
    CHECK(failure.message.size() < 400);
  }
}

TEST_CASE("hostile inputs: a 200 KB header is quoted cut to 80 characters") {
  const std::string garbage(200 * 1024, '#');
  const Failure failure = FailureOf(Npy("{" + garbage + "}", "", 2));
  CHECK(failure.code == ErrorCode::kInvalidArgument);
  CHECK(failure.message.find("malformed .npy header") != std::string::npos);
  CHECK(failure.message.find("{" + std::string(79, '#') + "\u2026 (204802 characters)") != std::string::npos);
  CHECK(failure.message.size() < 300);
}

TEST_CASE("hostile inputs: good arrays read from memory and from a file, big-endian converted") {
  const float values[2] = {1.5f, -2.0f};
  std::string data(reinterpret_cast<const char*>(values), sizeof values);
  const std::string bytes = Npy(Header("<f4", "(2,)"), data);
  const auto array = ReadNpyFromMemory(bytes.data(), bytes.size(), "in.npy");
  CHECK(array.shape == backplane::TensorShape{2});
  REQUIRE(array.data.size() == 8);
  CHECK(std::memcmp(array.data.data(), values, 8) == 0);

  const std::string big = Npy(Header(">i4", "()"), std::string("\x00\x00\x01\x02", 4));
  const auto scalar = ReadNpyFromMemory(big.data(), big.size(), "big.npy");
  std::int32_t value = 0;
  std::memcpy(&value, scalar.data.data(), 4);
  CHECK(scalar.shape.Rank() == 0);
  CHECK(value == 0x0102);

  // ReadNpy reads the file through the same reader (and names the file).
  const auto path = std::filesystem::temp_directory_path() / "backplane_hostile_over_cap.npy";
  {
    std::ofstream file(path, std::ios::binary);
    const std::string over_cap = Npy("", "", 2, std::int64_t{1} << 30);
    file.write(over_cap.data(), static_cast<std::streamsize>(over_cap.size()));
  }
  try {
    backplane::ReadNpy(path.string());
    FAIL("no error");
  } catch (const Exception& error) {
    CHECK(std::string(error.what()) ==
          path.string() + ": the .npy header of 1073741824 bytes is over the 1048576-byte cap");
  }
  std::filesystem::remove(path);
}

}  // namespace
