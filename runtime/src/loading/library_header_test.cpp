// LibraryHeaderProblem on synthetic files: minimal ELF, PE and Mach-O images built byte by byte,
// then broken one way each (truncated at every region, another machine, class, byte order,
// type), against an explicit NativeBinary so the cases do not depend on the build machine.
#include "loading/library_header.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <string>
#include <vector>

namespace backplane::loading {

namespace {

using Bytes = std::vector<unsigned char>;

const NativeBinary kX86_64Elf{BinaryFormat::kElf, 64, true, 62};
const NativeBinary kX86_64Pe{BinaryFormat::kPe, 64, true, 0x8664};
const NativeBinary kX86_64MachO{BinaryFormat::kMachO, 64, true, 0x01000007};

void Put(Bytes& bytes, std::size_t offset, std::uint64_t value, std::size_t width, bool little = true) {
  if (bytes.size() < offset + width) bytes.resize(offset + width);
  for (std::size_t i = 0; i < width; ++i) {
    const std::size_t at = little ? offset + i : offset + width - 1 - i;
    bytes[at] = static_cast<unsigned char>(value >> (8 * i));
  }
}

std::string Check(const Bytes& bytes, const NativeBinary& native) {
  const ByteReader read = [&bytes](std::uint64_t offset, void* out, std::size_t count, std::string&) {
    std::size_t n = 0;
    if (offset < bytes.size()) {
      n = std::min<std::size_t>(count, bytes.size() - static_cast<std::size_t>(offset));
      std::memcpy(out, bytes.data() + offset, n);
    }
    return std::optional<std::size_t>(n);
  };
  return LibraryHeaderProblem(read, bytes.size(), native);
}

bool Contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// A 64-bit little-endian ELF shared object for `machine`: header, two program headers at 64
// (a LOAD of bytes [0, 4096) and a LOAD of [4096, 8192)), section headers (3 x 64) at 8192;
// 8192 + 192 bytes in all.
Bytes Elf64(std::uint16_t machine = 62) {
  Bytes elf(8192 + 3 * 64, 0);
  const unsigned char ident[] = {0x7f, 'E', 'L', 'F', 2, 1, 1, 0};
  std::memcpy(elf.data(), ident, sizeof ident);
  Put(elf, 16, 3, 2);        // e_type ET_DYN
  Put(elf, 18, machine, 2);  // e_machine
  Put(elf, 20, 1, 4);        // e_version
  Put(elf, 32, 64, 8);       // e_phoff
  Put(elf, 40, 8192, 8);     // e_shoff
  Put(elf, 52, 64, 2);       // e_ehsize
  Put(elf, 54, 56, 2);       // e_phentsize
  Put(elf, 56, 2, 2);        // e_phnum
  Put(elf, 58, 64, 2);       // e_shentsize
  Put(elf, 60, 3, 2);        // e_shnum
  for (int i = 0; i < 2; ++i) {
    const std::size_t ph = 64 + 56 * i;
    Put(elf, ph + 0, 1, 4);             // PT_LOAD
    Put(elf, ph + 8, 4096 * i, 8);      // p_offset
    Put(elf, ph + 16, 4096 * i, 8);     // p_vaddr
    Put(elf, ph + 32, 4096, 8);         // p_filesz
    Put(elf, ph + 40, 4096 + 100, 8);   // p_memsz (bss beyond the file is fine)
  }
  return elf;
}

// A 32-bit ELF shared object for `machine` (i386): header, one LOAD of [0, 1024).
Bytes Elf32(std::uint16_t machine = 3) {
  Bytes elf(1024, 0);
  const unsigned char ident[] = {0x7f, 'E', 'L', 'F', 1, 1, 1, 0};
  std::memcpy(elf.data(), ident, sizeof ident);
  Put(elf, 16, 3, 2);
  Put(elf, 18, machine, 2);
  Put(elf, 28, 52, 4);   // e_phoff
  Put(elf, 42, 32, 2);   // e_phentsize
  Put(elf, 44, 1, 2);    // e_phnum
  Put(elf, 52 + 0, 1, 4);      // PT_LOAD
  Put(elf, 52 + 4, 0, 4);      // p_offset
  Put(elf, 52 + 16, 1024, 4);  // p_filesz
  return elf;
}

// A PE32+ DLL for `machine` with two sections of 512 raw bytes at 1024 and 1536.
Bytes Pe(std::uint16_t machine = 0x8664, std::uint16_t characteristics = 0x2022) {
  Bytes pe(2048, 0);
  pe[0] = 'M';
  pe[1] = 'Z';
  Put(pe, 0x3c, 128, 4);  // e_lfanew
  pe[128] = 'P';
  pe[129] = 'E';
  Put(pe, 128 + 4, machine, 2);
  Put(pe, 128 + 6, 2, 2);        // NumberOfSections
  Put(pe, 128 + 20, 240, 2);     // SizeOfOptionalHeader
  Put(pe, 128 + 22, characteristics, 2);
  const std::size_t table = 128 + 24 + 240;
  for (int i = 0; i < 2; ++i) {
    Put(pe, table + 40 * i + 16, 512, 4);             // SizeOfRawData
    Put(pe, table + 40 * i + 20, 1024 + 512 * i, 4);  // PointerToRawData
  }
  return pe;
}

// A 64-bit Mach-O dylib for `cputype` with one LC_SEGMENT_64 of file bytes [0, 4096).
Bytes MachO(std::uint32_t cputype = 0x01000007) {
  Bytes macho(4096, 0);
  Put(macho, 0, 0xfeedfacf, 4);
  Put(macho, 4, cputype, 4);
  Put(macho, 12, 6, 4);    // MH_DYLIB
  Put(macho, 16, 1, 4);    // ncmds
  Put(macho, 20, 72, 4);   // sizeofcmds
  Put(macho, 32, 0x19, 4); // LC_SEGMENT_64
  Put(macho, 36, 72, 4);   // cmdsize
  Put(macho, 32 + 40, 0, 8);     // fileoff
  Put(macho, 32 + 48, 4096, 8);  // filesize
  return macho;
}

}  // namespace

TEST_CASE("library header: well-formed ELF, PE and Mach-O images of the runtime's machine pass") {
  CHECK(Check(Elf64(), kX86_64Elf) == "");
  CHECK(Check(Elf32(), NativeBinary{BinaryFormat::kElf, 32, true, 3}) == "");
  CHECK(Check(Pe(), kX86_64Pe) == "");
  CHECK(Check(MachO(), kX86_64MachO) == "");
}

TEST_CASE("library header: this runtime's own binary description matches how it was built") {
  const NativeBinary native = ThisRuntimeBinary();
  CHECK(native.bits == sizeof(void*) * 8);
#if defined(__linux__) && defined(__x86_64__)
  CHECK(native.format == BinaryFormat::kElf);
  CHECK(native.machine == 62);
  CHECK(native.little_endian);
#endif
}

TEST_CASE("library header: an ELF cut short is truncated, naming the region and both sizes") {
  const Bytes whole = Elf64();
  struct Cut {
    std::size_t size;
    std::string says;
  };
  const std::vector<Cut> cuts = {
      {10, "is truncated: it ends at byte 10 but the ELF identification needs bytes up to 16"},
      {40, "is truncated: it ends at byte 40 but its ELF header needs bytes up to 64"},
      {100, "is truncated: it ends at byte 100 but its program header table needs bytes up to 176"},
      {4096, "is truncated: it ends at byte 4096 but its segment 1 (LOAD) needs bytes up to 8192"},
      {8192, "is truncated: it ends at byte 8192 but its section header table needs bytes up to 8384"},
  };
  for (const Cut& cut : cuts) {
    INFO(cut.size);
    CHECK(Check(Bytes(whole.begin(), whole.begin() + cut.size), kX86_64Elf) == cut.says);
  }
  // A file with no section headers (e_shoff 0) is fine; one ending inside segment 1 is not.
  Bytes no_sections = whole;
  Put(no_sections, 40, 0, 8);
  no_sections.resize(8192);
  CHECK(Check(no_sections, kX86_64Elf) == "");
  no_sections.resize(6000);
  CHECK(Check(no_sections, kX86_64Elf) ==
        "is truncated: it ends at byte 6000 but its segment 1 (LOAD) needs bytes up to 8192");
}

TEST_CASE("library header: offsets that overflow 64 bits are truncation, not a wrap-around") {
  Bytes elf = Elf64();
  Put(elf, 64 + 56 + 8, 0xFFFFFFFFFFFFF000ull, 8);  // segment 1's p_offset
  CHECK(Contains(Check(elf, kX86_64Elf), "its segment 1 (LOAD) needs bytes up to 18446744073709551615"));
  Bytes table = Elf64();
  Put(table, 32, 0xFFFFFFFFFFFFFFF0ull, 8);  // e_phoff
  CHECK(Contains(Check(table, kX86_64Elf), "its program header table needs bytes up to"));
}

TEST_CASE("library header: an ELF of another machine, class or byte order names both sides") {
  CHECK(Check(Elf64(183), kX86_64Elf) == "is an ELF for aarch64 (machine 183), this runtime is x86_64");
  CHECK(Check(Elf64(9999), kX86_64Elf) ==
        "is an ELF for an unknown machine (machine 9999), this runtime is x86_64");
  // A 64-bit header claiming 32-bit class (same machine): the class is what is wrong.
  Bytes class32 = Elf64();
  class32[4] = 1;
  CHECK(Check(class32, kX86_64Elf) == "is a 32-bit ELF file, this runtime is 64-bit");
  Bytes big = Elf64();
  big[5] = 2;
  Put(big, 18, 62, 2, /*little=*/false);
  CHECK(Check(big, kX86_64Elf) == "is a big-endian ELF file, this runtime is little-endian");
  Bytes bad_class = Elf64();
  bad_class[4] = 7;
  CHECK(Contains(Check(bad_class, kX86_64Elf), "its class byte is 7"));
}

TEST_CASE("library header: an ELF that is not a shared object, or has nothing to load, is refused") {
  Bytes executable = Elf64();
  Put(executable, 16, 2, 2);
  CHECK(Check(executable, kX86_64Elf) == "is an ELF file of type 2 (an executable), not a shared library");
  Bytes object = Elf64();
  Put(object, 16, 1, 2);
  CHECK(Contains(Check(object, kX86_64Elf), "a relocatable object"));
  Bytes no_phdrs = Elf64();
  Put(no_phdrs, 56, 0, 2);
  CHECK(Check(no_phdrs, kX86_64Elf) == "is not a loadable ELF file: it has no program headers");
  Bytes no_load = Elf64();
  Put(no_load, 64, 4, 4);
  Put(no_load, 64 + 56, 4, 4);
  CHECK(Check(no_load, kX86_64Elf) == "is not a loadable ELF file: it has no LOAD segment");
  Bytes odd_entries = Elf64();
  Put(odd_entries, 54, 40, 2);
  CHECK(Contains(Check(odd_entries, kX86_64Elf), "program header entries are 40 bytes, not 56"));
}

TEST_CASE("library header: empty, text and tiny files are not shared libraries") {
  CHECK(Check({}, kX86_64Elf) == "is empty (0 bytes), not a shared library");
  const std::string text = "this is not a shared library\n";
  CHECK(Check(Bytes(text.begin(), text.end()), kX86_64Elf) ==
        "is not a shared library: it does not start with the ELF magic number (29 bytes)");
  CHECK(Contains(Check(Bytes{0x7f, 'E', 'L'}, kX86_64Elf), "does not start with the ELF magic number"));
  CHECK(Check(Bytes{0x7f, 'E', 'L', 'F'}, kX86_64Elf) ==
        "is truncated: it ends at byte 4 but the ELF identification needs bytes up to 16");
}

TEST_CASE("library header: another platform's format is named") {
  CHECK(Check(Pe(), kX86_64Elf) == "is a PE file (Windows), this runtime loads ELF libraries");
  CHECK(Check(MachO(), kX86_64Elf) == "is a Mach-O file (macOS), this runtime loads ELF libraries");
  CHECK(Check(Elf64(), kX86_64Pe) ==
        "is an ELF file (Linux and other Unix systems), this runtime loads PE libraries");
}

TEST_CASE("library header: PE machine, DLL flag and section bounds") {
  CHECK(Check(Pe(0xaa64), kX86_64Pe) == "is a PE file for aarch64 (machine 43620), this runtime is x86_64");
  CHECK(Check(Pe(0x8664, 0x0022), kX86_64Pe) == "is a PE executable, not a DLL");
  Bytes pe = Pe();
  pe.resize(1800);
  CHECK(Check(pe, kX86_64Pe) == "is truncated: it ends at byte 1800 but its section 1 needs bytes up to 2048");
  Bytes dos = Pe();
  dos[128] = 'X';
  CHECK(Check(dos, kX86_64Pe) == "is an MS-DOS program, not a PE library");
}

TEST_CASE("library header: Mach-O machine, segment bounds and universal files") {
  CHECK(Check(MachO(0x0100000c), kX86_64MachO) ==
        "is a Mach-O file for arm64 (machine 16777228), this runtime is x86_64");
  Bytes cut = MachO();
  cut.resize(2000);
  CHECK(Check(cut, kX86_64MachO) == "is truncated: it ends at byte 2000 but its segment 0 needs bytes up to 4096");
  // A universal file with an arm64 slice only.
  Bytes fat(8 + 20, 0);
  Put(fat, 0, 0xcafebabe, 4, false);
  Put(fat, 4, 1, 4, false);
  Put(fat, 8, 0x0100000c, 4, false);
  Put(fat, 8 + 8, 4096, 4, false);
  Put(fat, 8 + 12, 4096, 4, false);
  const Bytes slice = MachO(0x0100000c);
  fat.resize(4096);
  fat.insert(fat.end(), slice.begin(), slice.end());
  CHECK(Check(fat, kX86_64MachO) == "is a universal Mach-O file for arm64, none of them x86_64");
}

TEST_CASE("library header: a read error or a file that shrinks is reported, not read past") {
  const Bytes elf = Elf64();
  const ByteReader failing = [](std::uint64_t, void*, std::size_t, std::string& why) {
    why = "cannot be read: Input/output error";
    return std::optional<std::size_t>();
  };
  CHECK(LibraryHeaderProblem(failing, elf.size(), kX86_64Elf) == "cannot be read: Input/output error");
  const ByteReader shrunk = [&elf](std::uint64_t offset, void* out, std::size_t count, std::string&) {
    const std::size_t limit = 100;  // the file is 100 bytes now, though it was bigger
    const std::size_t n = offset >= limit ? 0 : std::min<std::size_t>(count, limit - offset);
    std::memcpy(out, elf.data() + offset, n);
    return std::optional<std::size_t>(n);
  };
  CHECK(LibraryHeaderProblem(shrunk, elf.size(), kX86_64Elf) ==
        "cannot be read: it became shorter while being read");
}

}  // namespace backplane::loading
