// .npy reading and writing: magic, version, a Python-literal header dict, raw data.
#include <backplane/npy.hpp>

#include <backplane/checked_size.hpp>
#include <backplane/path_text.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <string_view>

namespace backplane {

namespace {

constexpr std::array<char, 6> kMagic{'\x93', 'N', 'U', 'M', 'P', 'Y'};
// numpy refuses headers above this; so do we (a hostile length cannot make us allocate).
constexpr std::size_t kMaxHeaderBytes = 1 << 20;
// Messages quote at most this much of a header.
constexpr std::size_t kMaxQuotedChars = 80;

// `text`, cut to kMaxQuotedChars characters with "…" appended when longer.
std::string Quote(std::string_view text) {
  if (text.size() <= kMaxQuotedChars) return std::string(text);
  return std::string(text.substr(0, kMaxQuotedChars)) + "\u2026 (" + std::to_string(text.size()) + " characters)";
}

struct Dtype {
  DataType type;
  const char* descr;  // as written (little-endian or byte order irrelevant)
};
constexpr std::array<Dtype, 12> kDtypes{{
    {DataType::kFloat32, "<f4"}, {DataType::kFloat16, "<f2"}, {DataType::kFloat64, "<f8"},
    {DataType::kInt32, "<i4"},   {DataType::kInt64, "<i8"},   {DataType::kBool, "|b1"},
    {DataType::kInt8, "|i1"},    {DataType::kUInt8, "|u1"},   {DataType::kInt16, "<i2"},
    {DataType::kUInt16, "<u2"},  {DataType::kUInt32, "<u4"},  {DataType::kUInt64, "<u8"},
}};

[[noreturn]] void Fail(ErrorCode code, const std::string& path, const std::string& why) {
  throw Exception(code, path + ": " + why);
}

// The header dict: {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
class HeaderParser {
 public:
  HeaderParser(std::string_view text, const std::string& path) : text_(text), path_(path) {}

  void Parse(std::string& descr, bool& fortran_order, std::vector<std::int64_t>& shape) {
    bool have_descr = false, have_order = false, have_shape = false;
    Expect('{');
    while (true) {
      SkipSpace();
      if (Peek() == '}') { ++pos_; break; }
      const std::string key = String();
      Expect(':');
      if (key == "descr") {
        descr = String();
        have_descr = true;
      } else if (key == "fortran_order") {
        fortran_order = Bool();
        have_order = true;
      } else if (key == "shape") {
        shape = Tuple();
        have_shape = true;
      } else {
        Fail("unknown key '" + Quote(key) + "'");
      }
      SkipSpace();
      if (Peek() == ',') { ++pos_; continue; }
      Expect('}');
      break;
    }
    SkipSpace();
    if (pos_ != text_.size()) Fail("unexpected text after the dict");
    if (!have_descr || !have_order || !have_shape) Fail("needs the keys 'descr', 'fortran_order' and 'shape'");
  }

 private:
  [[noreturn]] void Fail(const std::string& why) const {
    backplane::Fail(ErrorCode::kInvalidArgument, path_, "malformed .npy header (" + why + "): " + Quote(text_));
  }
  void SkipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  char Peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void Expect(char c) {
    SkipSpace();
    if (Peek() != c) Fail(std::string("expected '") + c + "'");
    ++pos_;
  }
  std::string String() {
    SkipSpace();
    const char quote = Peek();
    if (quote != '\'' && quote != '"') Fail("expected a string");
    const std::size_t end = text_.find(quote, pos_ + 1);
    if (end == std::string_view::npos) Fail("unterminated string");
    std::string value(text_.substr(pos_ + 1, end - pos_ - 1));
    pos_ = end + 1;
    return value;
  }
  bool Bool() {
    SkipSpace();
    if (text_.substr(pos_, 4) == "True") { pos_ += 4; return true; }
    if (text_.substr(pos_, 5) == "False") { pos_ += 5; return false; }
    Fail("expected True or False");
  }
  std::vector<std::int64_t> Tuple() {
    std::vector<std::int64_t> dims;
    Expect('(');
    while (true) {
      SkipSpace();
      if (Peek() == ')') { ++pos_; break; }
      std::int64_t value = 0;
      bool digits = false;
      while (std::isdigit(static_cast<unsigned char>(Peek()))) {
        const int digit = Peek() - '0';
        if (value > (std::numeric_limits<std::int64_t>::max() - digit) / 10) Fail("a dimension is too large");
        value = value * 10 + digit;
        digits = true;
        ++pos_;
      }
      if (Peek() == 'L') ++pos_;  // Python 2 longs
      if (!digits) Fail("expected a dimension");
      dims.push_back(value);
      SkipSpace();
      if (Peek() == ',') { ++pos_; continue; }
      Expect(')');
      break;
    }
    return dims;
  }

  std::string_view text_;
  const std::string& path_;
  std::size_t pos_ = 0;
};

std::uint64_t ReadLittleEndian(const unsigned char* bytes, std::size_t count) {
  std::uint64_t value = 0;
  for (std::size_t i = count; i-- > 0;) value = (value << 8) | bytes[i];
  return value;
}

}  // namespace

NpyArray ReadNpyFromMemory(const void* data, std::size_t size, const std::string& path) {
  const auto* bytes = static_cast<const unsigned char*>(data);
  const std::uint64_t file_size = size;
  if (size < 10) {
    Fail(ErrorCode::kInvalidArgument, path, "not a .npy file (too short: " + std::to_string(size) + " bytes)");
  }
  if (!std::equal(kMagic.begin(), kMagic.end(), reinterpret_cast<const char*>(bytes))) {
    Fail(ErrorCode::kInvalidArgument, path, "not a .npy file (no \\x93NUMPY magic)");
  }
  const int major = bytes[6];
  std::size_t length_bytes = 0;
  if (major == 1) {
    length_bytes = 2;
  } else if (major == 2 || major == 3) {
    length_bytes = 4;
    if (size < 12) Fail(ErrorCode::kInvalidArgument, path, "truncated .npy header");
  } else {
    Fail(ErrorCode::kUnsupported, path, ".npy format version " + std::to_string(major) + "." +
                                            std::to_string(bytes[7]) + " is not supported (1.0 to 3.0 are)");
  }
  const std::uint64_t header_length = ReadLittleEndian(bytes + 8, length_bytes);
  const std::uint64_t data_offset = 8 + length_bytes + header_length;
  if (header_length > kMaxHeaderBytes) {
    Fail(ErrorCode::kInvalidArgument, path, "the .npy header of " + std::to_string(header_length) + " bytes is over the " +
                                                std::to_string(kMaxHeaderBytes) + "-byte cap");
  }
  if (data_offset > file_size) {
    Fail(ErrorCode::kInvalidArgument, path, "the .npy header length " + std::to_string(header_length) +
                                                " does not fit the file (" + std::to_string(file_size) + " bytes)");
  }
  const std::string_view header(reinterpret_cast<const char*>(bytes) + 8 + length_bytes,
                                static_cast<std::size_t>(header_length));

  std::string descr;
  bool fortran_order = false;
  std::vector<std::int64_t> dims;
  HeaderParser(header, path).Parse(descr, fortran_order, dims);

  NpyArray array;
  bool big_endian = false;
  std::optional<DataType> type;
  for (const auto& dtype : kDtypes) {
    const std::string_view known = dtype.descr;
    if (descr.size() == 3 && descr.substr(1) == known.substr(1) &&
        (descr[0] == known[0] || descr[0] == '=' || descr[0] == '|' || descr[0] == '>' || descr[0] == '<')) {
      type = dtype.type;
      big_endian = descr[0] == '>';
    }
  }
  if (!type) {
    Fail(ErrorCode::kUnsupported, path, "dtype '" + Quote(descr) + "' is not supported (f2, f4, f8, i1, i2, i4, i8, u1, u2, u4, u8 and b1 are)");
  }
  if (fortran_order) {
    Fail(ErrorCode::kUnsupported, path, "fortran_order True is not supported; save a C-ordered array "
                                        "(numpy.ascontiguousarray)");
  }
  array.type = *type;
  array.shape = TensorShape(dims);
  const std::uint64_t needed = CheckedNumBytes(dims, array.type, path + ": the .npy shape");
  const std::uint64_t available = file_size - data_offset;
  if (needed != available) {
    Fail(ErrorCode::kInvalidArgument, path,
         "the data is " + std::to_string(available) + " bytes, but shape " + ToString(array.shape) + " of '" +
             descr + "' needs " + std::to_string(needed));
  }
  const unsigned char* first = bytes + data_offset;
  array.data.assign(first, first + static_cast<std::size_t>(needed));
  const std::size_t element = SizeOf(array.type);
  if (big_endian && element > 1) {
    for (std::size_t i = 0; i < array.data.size(); i += element) {
      std::reverse(array.data.begin() + static_cast<std::ptrdiff_t>(i),
                   array.data.begin() + static_cast<std::ptrdiff_t>(i + element));
    }
  }
  return array;
}

NpyArray ReadNpy(const std::string& path) {
  std::error_code error;
  const std::filesystem::path file_path = PathFromUtf8(path);
  const auto file_size = std::filesystem::file_size(file_path, error);
  std::ifstream file(file_path, std::ios::binary);
  if (error || !file) Fail(ErrorCode::kNotFound, path, "cannot open the file (" + (error ? error.message() : std::string("not readable")) + ")");
  if (file_size > std::numeric_limits<std::size_t>::max()) Fail(ErrorCode::kInvalidArgument, path, "the file is too large");
  std::vector<char> bytes(static_cast<std::size_t>(file_size));
  if (!file.read(bytes.data(), static_cast<std::streamsize>(bytes.size()))) {
    Fail(ErrorCode::kInvalidArgument, path, "the file is shorter than its size (" + std::to_string(file_size) + " bytes)");
  }
  return ReadNpyFromMemory(bytes.data(), bytes.size(), path);
}

void WriteNpy(const std::string& path, const NpyArray& array) {
  const char* descr = nullptr;
  for (const auto& dtype : kDtypes) {
    if (dtype.type == array.type) descr = dtype.descr;
  }
  if (!descr) {
    Fail(ErrorCode::kUnsupported, path, std::string("cannot write ") + ToString(array.type) + " (numpy has no such dtype)");
  }
  const std::uint64_t bytes = CheckedNumBytes(array.shape.Dims(), array.type, path);
  if (bytes != array.data.size()) {
    Fail(ErrorCode::kInvalidArgument, path,
         std::to_string(array.data.size()) + " bytes of data for " + ToString(array.type) + " " +
             ToString(array.shape) + ", which needs " + std::to_string(bytes));
  }
  std::string shape = "(";
  for (std::size_t i = 0; i < array.shape.Rank(); ++i) shape += std::to_string(array.shape[i]) + (array.shape.Rank() == 1 ? "," : i + 1 < array.shape.Rank() ? ", " : "");
  shape += ")";
  std::string header = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
  // Pad with spaces so the data starts on a 64-byte boundary; the header ends with '\n'.
  const bool version2 = header.size() + 1 + 10 > 65535;
  const std::size_t lead = version2 ? 12 : 10;
  const std::size_t total = (lead + header.size() + 1 + 63) / 64 * 64;
  header.append(total - lead - header.size() - 1, ' ');
  header += '\n';

  std::ofstream file(PathFromUtf8(path), std::ios::binary | std::ios::trunc);
  if (!file) Fail(ErrorCode::kInvalidArgument, path, "cannot open the file for writing");
  file.write(kMagic.data(), kMagic.size());
  const char version[2] = {static_cast<char>(version2 ? 2 : 1), 0};
  file.write(version, 2);
  const std::size_t length = header.size();
  for (std::size_t i = 0; i < (version2 ? 4u : 2u); ++i) file.put(static_cast<char>((length >> (8 * i)) & 0xff));
  file.write(header.data(), static_cast<std::streamsize>(header.size()));
  file.write(reinterpret_cast<const char*>(array.data.data()), static_cast<std::streamsize>(array.data.size()));
  if (!file.flush()) Fail(ErrorCode::kInvalidArgument, path, "writing failed");
}

}  // namespace backplane
