#include "discovery/sha256.hpp"

#include <backplane/exception.hpp>

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <random>

namespace backplane::discovery {

namespace fs = std::filesystem;

TEST_CASE("sha256: known digests (FIPS 180-2 examples)") {
  const fs::path file = fs::temp_directory_path() /
                        ("backplane-sha256-" + std::to_string(std::random_device{}()) + ".bin");
  std::ofstream(file, std::ios::binary) << "abc";
  CHECK(Sha256OfFile(file) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  std::ofstream(file, std::ios::binary | std::ios::trunc);
  CHECK(Sha256OfFile(file) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  // Larger than one read chunk: a million 'a'.
  {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << std::string(1000000, 'a');
  }
  CHECK(Sha256OfFile(file) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  fs::remove(file);
}

TEST_CASE("sha256: a missing file is an error naming it") {
  const fs::path missing = fs::temp_directory_path() / "backplane-no-such-file.bin";
  try {
    Sha256OfFile(missing);
    FAIL("expected an exception");
  } catch (const Exception& error) {
    CHECK(error.code() == ErrorCode::kNotFound);
    CHECK(std::string(error.what()).find(missing.string()) != std::string::npos);
  }
}

}  // namespace backplane::discovery
