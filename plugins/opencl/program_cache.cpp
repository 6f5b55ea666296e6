#include "program_cache.hpp"

#include <backplane/hex_digits.hpp>

#include <openssl/evp.h>

#include <atomic>
#include <chrono>
#include <fstream>
#include <iterator>
#include <random>
#include <sstream>
#include <system_error>

namespace backplane::opencl {

namespace {

constexpr const char* kFormatTag = "backplane-opencl-binary-v1";

std::string Sha256Hex(const void* data, std::size_t size) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (EVP_Digest(data, size, digest, &length, EVP_sha256(), nullptr) != 1) return {};
  return HexDigits(digest, length);
}

// A name no other writer (thread or process) picks at the same moment.
std::string UniqueSuffix() {
  static std::atomic<std::uint64_t> counter{0};
  thread_local std::mt19937_64 random(std::random_device{}() ^
                                      static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
  std::ostringstream name;
  name << std::hex << random() << "-" << counter.fetch_add(1);
  return name.str();
}

// Whether `folder` exists (created if needed) and a file can be written in it; else why not.
std::string Unwritable(const std::filesystem::path& folder) {
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) return "cannot create '" + folder.string() + "': " + error.message();
  const auto probe = folder / (".probe-" + UniqueSuffix());
  {
    std::ofstream file(probe, std::ios::binary);
    if (!file || !(file << "probe") || !file.flush()) return "'" + folder.string() + "' is not writable";
  }
  std::filesystem::remove(probe, error);
  return {};
}

}  // namespace

std::string BinaryKey(const std::vector<std::string>& fields) {
  std::string input;
  for (const auto& field : fields) {
    input += std::to_string(field.size());
    input += ':';
    input += field;
  }
  return Sha256Hex(input.data(), input.size());
}

ProgramBinaryCache::ProgramBinaryCache(const std::filesystem::path& preferred) {
  std::string why = preferred.empty() ? std::string("no cache folder given") : Unwritable(preferred);
  if (why.empty()) {
    directory_ = preferred;
    return;
  }
  std::error_code error;
  const auto temp = std::filesystem::temp_directory_path(error);
  if (!error) {
    // A fresh name: create_directory reports false when it already exists (someone else's).
    const auto fallback = temp / ("backplane-opencl-" + UniqueSuffix());
    if (std::filesystem::create_directory(fallback, error) && !error) {
      owned_ = fallback;
      const std::string fallback_why = Unwritable(fallback);
      if (fallback_why.empty()) {
        directory_ = fallback;
        note_ = why + "; using '" + fallback.string() + "' for this process only";
        return;
      }
      why += "; " + fallback_why;
    } else {
      why += "; cannot create '" + fallback.string() + "'";
    }
  }
  note_ = why + "; program binaries are not cached on disk";
}

ProgramBinaryCache::~ProgramBinaryCache() {
  if (owned_.empty()) return;
  std::error_code ignored;
  std::filesystem::remove_all(owned_, ignored);
}

std::filesystem::path ProgramBinaryCache::PathOf(const std::string& key) const { return directory_ / (key + ".bin"); }

std::optional<std::vector<unsigned char>> ProgramBinaryCache::Load(const std::string& key) const {
  if (!Enabled()) return std::nullopt;
  std::ifstream file(PathOf(key), std::ios::binary);
  if (!file) return std::nullopt;
  std::string header;
  if (!std::getline(file, header)) return std::nullopt;
  std::istringstream fields(header);
  std::string tag, hash;
  std::size_t size = 0;
  if (!(fields >> tag >> size >> hash) || tag != kFormatTag || size == 0 || size > (std::size_t{1} << 31)) {
    return std::nullopt;
  }
  std::vector<unsigned char> binary(size);
  if (!file.read(reinterpret_cast<char*>(binary.data()), static_cast<std::streamsize>(size))) return std::nullopt;
  if (file.peek() != std::ifstream::traits_type::eof()) return std::nullopt;  // trailing bytes
  if (Sha256Hex(binary.data(), binary.size()) != hash) return std::nullopt;
  return binary;
}

bool ProgramBinaryCache::Store(const std::string& key, const std::vector<unsigned char>& binary) const {
  if (!Enabled() || binary.empty()) return false;
  const auto target = PathOf(key);
  const auto temporary = directory_ / ("." + key + "." + UniqueSuffix() + ".tmp");
  {
    std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
    if (file) {
      file << kFormatTag << ' ' << binary.size() << ' ' << Sha256Hex(binary.data(), binary.size()) << '\n';
      file.write(reinterpret_cast<const char*>(binary.data()), static_cast<std::streamsize>(binary.size()));
      file.flush();
    }
    if (!file) {
      file.close();
      std::error_code ignored;
      std::filesystem::remove(temporary, ignored);
      return false;
    }
  }
  std::error_code error;
  std::filesystem::rename(temporary, target, error);
  if (error) {
    std::error_code ignored;
    std::filesystem::remove(temporary, ignored);
    return false;
  }
  return true;
}

}  // namespace backplane::opencl
