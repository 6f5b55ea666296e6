// Checking a plugin library's file header before the OS loader sees it: the loader maps the
// file's segments as they are described, and touching a mapped page past the end of a
// truncated file raises SIGBUS in the whole process. So a file must be a shared library of
// this runtime's format, class, byte order and machine, and every region the loader maps or
// reads (program headers, segments with file contents, section headers; PE sections; Mach-O
// segments) must lie inside the file.
#pragma once

#include "platform/regular_file.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace backplane::loading {

enum class BinaryFormat { kElf, kPe, kMachO };

// What a library must be to load into this process.
struct NativeBinary {
  BinaryFormat format = BinaryFormat::kElf;
  unsigned bits = 64;          // 32 or 64
  bool little_endian = true;
  std::uint32_t machine = 0;   // ELF e_machine, PE Machine or Mach-O cputype
};

// The binary this runtime was built as (compile-time).
NativeBinary ThisRuntimeBinary();

// Reads up to `count` bytes at `offset`; returns how many were read (fewer at the end), or
// nullopt with `why` set on an I/O error.
using ByteReader =
    std::function<std::optional<std::size_t>(std::uint64_t offset, void* out, std::size_t count,
                                              std::string& why)>;

// Checks the header of a file of `size` bytes read through `read`. Returns "" when it is a
// shared library `native` can load whose described regions lie inside the file; otherwise the
// problem, phrased to follow the file's name: "is truncated: it ends at byte 40960 but its
// segment 2 (LOAD) needs bytes up to 81920", "is an ELF for aarch64 (machine 183), this
// runtime is x86_64". Reads only headers (a few KiB at most), never the whole file. Never
// throws except std::bad_alloc. Thread-safe if `read` is.
std::string LibraryHeaderProblem(const ByteReader& read, std::uint64_t size,
                                 const NativeBinary& native);

// The same for an open file, against ThisRuntimeBinary().
std::string LibraryHeaderProblem(const platform::RegularFile& file);

}  // namespace backplane::loading
