// libFuzzer target: the .npy reader (backplane::ReadNpyFromMemory) on arbitrary bytes.
//
// The contract under test: a bad file is a backplane::Exception; an array that is returned has
// exactly shape.NumElements() * SizeOf(type) bytes of data.
#include <backplane/npy.hpp>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const backplane::NpyArray array = backplane::ReadNpyFromMemory(data, size, "fuzz.npy");
    const auto expected =
        static_cast<std::size_t>(array.shape.NumElements()) * backplane::SizeOf(array.type);
    if (array.data.size() != expected) std::abort();
  } catch (const backplane::Exception&) {
    // The documented failure for bytes that are not a well-formed, supported .npy file.
  }
  return 0;
}
