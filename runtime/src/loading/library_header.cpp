#include "loading/library_header.hpp"

#include <array>
#include <vector>

namespace backplane::loading {

namespace {

// ---- Machines, for messages ---------------------------------------------------------------

struct MachineName {
  std::uint32_t machine;
  const char* name;
};

constexpr std::array<MachineName, 14> kElfMachines{{
    {2, "sparc"}, {3, "i386"}, {8, "mips"}, {20, "ppc"}, {21, "ppc64"}, {22, "s390x"},
    {40, "arm"}, {43, "sparc64"}, {50, "ia64"}, {62, "x86_64"}, {183, "aarch64"},
    {243, "riscv"}, {247, "bpf"}, {258, "loongarch"},
}};
constexpr std::array<MachineName, 5> kPeMachines{{
    {0x14c, "i386"}, {0x1c4, "arm"}, {0x8664, "x86_64"}, {0xaa64, "aarch64"}, {0x200, "ia64"},
}};
constexpr std::array<MachineName, 5> kMachOMachines{{
    {7, "i386"}, {0x01000007, "x86_64"}, {12, "arm"}, {0x0100000c, "arm64"}, {18, "ppc"},
}};

template <std::size_t N>
std::string NameOf(const std::array<MachineName, N>& table, std::uint32_t machine) {
  for (const auto& entry : table) {
    if (entry.machine == machine) return entry.name;
  }
  return "an unknown machine";
}

std::string MachineName(BinaryFormat format, std::uint32_t machine) {
  switch (format) {
    case BinaryFormat::kElf: return NameOf(kElfMachines, machine);
    case BinaryFormat::kPe: return NameOf(kPeMachines, machine);
    case BinaryFormat::kMachO: return NameOf(kMachOMachines, machine);
  }
  return "an unknown machine";
}

const char* FormatName(BinaryFormat format) {
  switch (format) {
    case BinaryFormat::kElf: return "an ELF file (Linux and other Unix systems)";
    case BinaryFormat::kPe: return "a PE file (Windows)";
    case BinaryFormat::kMachO: return "a Mach-O file (macOS)";
  }
  return "a file";
}

const char* ShortFormatName(BinaryFormat format) {
  switch (format) {
    case BinaryFormat::kElf: return "ELF";
    case BinaryFormat::kPe: return "PE";
    case BinaryFormat::kMachO: return "Mach-O";
  }
  return "?";
}

// ---- Reading ------------------------------------------------------------------------------

// Reads regions of the file into buffers and decodes little- or big-endian fields from them.
// Every Read first checks that the region lies inside the file, so a region that does not is
// reported as truncation, never read past.
class Bytes {
 public:
  Bytes(const ByteReader& read, std::uint64_t size) : read_(read), size_(size) {}

  std::uint64_t Size() const { return size_; }

  // True when [offset, offset + count) lies inside the file (no overflow).
  bool Inside(std::uint64_t offset, std::uint64_t count) const {
    return count <= size_ && offset <= size_ - count;
  }

  // The `count` bytes at `offset`; the caller checked Inside(). Sets `problem` on an I/O error
  // or a short read (the file shrank) and returns an empty buffer.
  std::vector<unsigned char> Read(std::uint64_t offset, std::size_t count, std::string& problem) const {
    std::vector<unsigned char> buffer(count);
    std::string why;
    const auto got = read_(offset, buffer.data(), count, why);
    if (!got) {
      problem = why;
      return {};
    }
    if (*got != count) {
      problem = "cannot be read: it became shorter while being read";
      return {};
    }
    return buffer;
  }

 private:
  const ByteReader& read_;
  std::uint64_t size_;
};

std::uint64_t Field(const std::vector<unsigned char>& bytes, std::size_t offset, std::size_t width,
                    bool little_endian) {
  std::uint64_t value = 0;
  for (std::size_t i = 0; i < width; ++i) {
    const std::size_t at = little_endian ? offset + width - 1 - i : offset + i;
    value = (value << 8) | bytes[at];
  }
  return value;
}

std::string Truncated(std::uint64_t size, const std::string& what, std::uint64_t needed_end) {
  return "is truncated: it ends at byte " + std::to_string(size) + " but " + what +
         " needs bytes up to " + std::to_string(needed_end);
}

// offset + count, saturating (the message only needs "more than the file").
std::uint64_t End(std::uint64_t offset, std::uint64_t count) {
  return offset > UINT64_MAX - count ? UINT64_MAX : offset + count;
}

std::string MachineMismatch(BinaryFormat format, std::uint32_t machine, const NativeBinary& native) {
  return std::string("is ") + (format == BinaryFormat::kElf ? "an ELF" : format == BinaryFormat::kPe ? "a PE file" : "a Mach-O file") +
         " for " + MachineName(format, machine) + " (machine " + std::to_string(machine) +
         "), this runtime is " + MachineName(native.format, native.machine);
}

// ---- ELF ----------------------------------------------------------------------------------

const char* SegmentTypeName(std::uint32_t type) {
  switch (type) {
    case 1: return "LOAD";
    case 2: return "DYNAMIC";
    case 3: return "INTERP";
    case 4: return "NOTE";
    case 6: return "PHDR";
    case 7: return "TLS";
    case 0x6474e550: return "GNU_EH_FRAME";
    case 0x6474e552: return "GNU_RELRO";
    case 0x6474e553: return "GNU_PROPERTY";
  }
  return "other";
}

std::string CheckElf(const Bytes& file, const NativeBinary& native) {
  std::string problem;
  if (!file.Inside(0, 16)) return Truncated(file.Size(), "the ELF identification", 16);
  const auto ident = file.Read(0, 16, problem);
  if (!problem.empty()) return problem;
  const unsigned elf_class = ident[4];
  const unsigned data = ident[5];
  if (elf_class != 1 && elf_class != 2) {
    return "is not a valid ELF file: its class byte is " + std::to_string(elf_class) + " (neither 32- nor 64-bit)";
  }
  if (data != 1 && data != 2) {
    return "is not a valid ELF file: its byte-order byte is " + std::to_string(data);
  }
  const bool wide = elf_class == 2;
  const bool little = data == 1;
  const std::size_t header_size = wide ? 64 : 52;
  if (!file.Inside(0, header_size)) {
    return Truncated(file.Size(), "its ELF header", header_size);
  }
  const auto header = file.Read(0, header_size, problem);
  if (!problem.empty()) return problem;
  const auto type = static_cast<std::uint32_t>(Field(header, 16, 2, little));
  const auto machine = static_cast<std::uint32_t>(Field(header, 18, 2, little));
  // Machine first: "built for aarch64" says more than "32-bit" or "big-endian" would.
  if (native.format == BinaryFormat::kElf && machine != native.machine) {
    return MachineMismatch(BinaryFormat::kElf, machine, native);
  }
  if ((wide ? 64u : 32u) != native.bits) {
    return "is a " + std::string(wide ? "64" : "32") + "-bit ELF file, this runtime is " +
           std::to_string(native.bits) + "-bit";
  }
  if (little != native.little_endian) {
    return std::string("is a ") + (little ? "little" : "big") + "-endian ELF file, this runtime is " +
           (native.little_endian ? "little" : "big") + "-endian";
  }
  if (type != 3) {  // ET_DYN
    const char* what = type == 1 ? "a relocatable object (.o)" : type == 2 ? "an executable" : type == 4 ? "a core dump" : "not a shared library";
    return "is an ELF file of type " + std::to_string(type) + " (" + what + "), not a shared library";
  }

  const std::uint64_t phoff = Field(header, wide ? 32 : 28, wide ? 8 : 4, little);
  const std::uint64_t shoff = Field(header, wide ? 40 : 32, wide ? 8 : 4, little);
  const std::uint64_t phentsize = Field(header, wide ? 54 : 42, 2, little);
  const std::uint64_t phnum = Field(header, wide ? 56 : 44, 2, little);
  const std::uint64_t shentsize = Field(header, wide ? 58 : 46, 2, little);
  const std::uint64_t shnum = Field(header, wide ? 60 : 48, 2, little);
  const std::uint64_t phdr_size = wide ? 56 : 32;
  const std::uint64_t shdr_size = wide ? 64 : 40;

  if (phnum == 0) return "is not a loadable ELF file: it has no program headers";
  if (phnum == 0xffff) return "has 65535 or more program headers, which this runtime does not accept";
  if (phentsize != phdr_size) {
    return "is not a valid ELF file: its program header entries are " + std::to_string(phentsize) +
           " bytes, not " + std::to_string(phdr_size);
  }
  const std::uint64_t table = phnum * phdr_size;  // <= 65534 * 56: no overflow
  if (!file.Inside(phoff, table)) {
    return Truncated(file.Size(), "its program header table", End(phoff, table));
  }
  const auto phdrs = file.Read(phoff, static_cast<std::size_t>(table), problem);
  if (!problem.empty()) return problem;
  bool loadable = false;
  for (std::uint64_t i = 0; i < phnum; ++i) {
    const std::size_t at = static_cast<std::size_t>(i * phdr_size);
    const auto p_type = static_cast<std::uint32_t>(Field(phdrs, at, 4, little));
    const std::uint64_t p_offset = Field(phdrs, at + (wide ? 8 : 4), wide ? 8 : 4, little);
    const std::uint64_t p_filesz = Field(phdrs, at + (wide ? 32 : 16), wide ? 8 : 4, little);
    if (p_type == 1) loadable = true;
    if (p_filesz != 0 && !file.Inside(p_offset, p_filesz)) {
      return Truncated(file.Size(),
                       "its segment " + std::to_string(i) + " (" + SegmentTypeName(p_type) + ")",
                       End(p_offset, p_filesz));
    }
  }
  if (!loadable) return "is not a loadable ELF file: it has no LOAD segment";
  // The loader does not map section headers, but a file cut before them is a half copy.
  if (shoff != 0) {
    // shnum 0 with a table means the count is in section 0 (more than 65279 sections): that
    // entry at least must be there.
    if (shentsize != shdr_size) {
      return "is not a valid ELF file: its section header entries are " + std::to_string(shentsize) +
             " bytes, not " + std::to_string(shdr_size);
    }
    const std::uint64_t sections = (shnum == 0 ? 1 : shnum) * shdr_size;
    if (!file.Inside(shoff, sections)) {
      return Truncated(file.Size(), "its section header table", End(shoff, sections));
    }
  }
  return {};
}

// ---- PE -----------------------------------------------------------------------------------

std::string CheckPe(const Bytes& file, const NativeBinary& native) {
  std::string problem;
  if (!file.Inside(0, 64)) return Truncated(file.Size(), "its DOS header", 64);
  const auto dos = file.Read(0, 64, problem);
  if (!problem.empty()) return problem;
  const std::uint64_t pe_offset = Field(dos, 0x3c, 4, true);
  if (!file.Inside(pe_offset, 24)) return Truncated(file.Size(), "its PE header", End(pe_offset, 24));
  const auto coff = file.Read(pe_offset, 24, problem);
  if (!problem.empty()) return problem;
  if (coff[0] != 'P' || coff[1] != 'E' || coff[2] != 0 || coff[3] != 0) {
    return "is an MS-DOS program, not a PE library";
  }
  const auto machine = static_cast<std::uint32_t>(Field(coff, 4, 2, true));
  if (native.format == BinaryFormat::kPe && machine != native.machine) {
    return MachineMismatch(BinaryFormat::kPe, machine, native);
  }
  const std::uint64_t sections = Field(coff, 6, 2, true);
  const std::uint64_t optional_size = Field(coff, 20, 2, true);
  const std::uint64_t characteristics = Field(coff, 22, 2, true);
  if ((characteristics & 0x2000) == 0) return "is a PE executable, not a DLL";
  const std::uint64_t table_offset = pe_offset + 24 + optional_size;
  const std::uint64_t table = sections * 40;
  if (!file.Inside(table_offset, table)) {
    return Truncated(file.Size(), "its section table", End(table_offset, table));
  }
  const auto entries = file.Read(table_offset, static_cast<std::size_t>(table), problem);
  if (!problem.empty()) return problem;
  for (std::uint64_t i = 0; i < sections; ++i) {
    const std::size_t at = static_cast<std::size_t>(i * 40);
    const std::uint64_t raw_size = Field(entries, at + 16, 4, true);
    const std::uint64_t raw_offset = Field(entries, at + 20, 4, true);
    if (raw_size != 0 && !file.Inside(raw_offset, raw_size)) {
      return Truncated(file.Size(), "its section " + std::to_string(i), End(raw_offset, raw_size));
    }
  }
  return {};
}

// ---- Mach-O -------------------------------------------------------------------------------

constexpr std::uint64_t kMaxLoadCommandBytes = 1 << 20;

std::string CheckMachOImage(const Bytes& file, std::uint64_t base, std::uint64_t image_size,
                            const NativeBinary& native) {
  std::string problem;
  if (!file.Inside(base, 28)) return Truncated(file.Size(), "its Mach-O header", End(base, 28));
  const auto start = file.Read(base, 28, problem);
  if (!problem.empty()) return problem;
  const auto magic = static_cast<std::uint32_t>(Field(start, 0, 4, true));
  bool little = true;
  bool wide = false;
  if (magic == 0xfeedfacfu) wide = true;
  else if (magic == 0xfeedfaceu) wide = false;
  else if (magic == 0xcffaedfeu) { wide = true; little = false; }
  else if (magic == 0xcefaedfeu) { wide = false; little = false; }
  else return "is not a valid Mach-O file: bad magic number in its slice";
  const auto cputype = static_cast<std::uint32_t>(Field(start, 4, 4, little));
  if (native.format == BinaryFormat::kMachO && cputype != native.machine) {
    return MachineMismatch(BinaryFormat::kMachO, cputype, native);
  }
  const std::uint64_t filetype = Field(start, 12, 4, little);
  if (filetype != 6 && filetype != 8) {  // MH_DYLIB, MH_BUNDLE
    return "is a Mach-O file of type " + std::to_string(filetype) + ", not a dynamic library or bundle";
  }
  const std::uint64_t ncmds = Field(start, 16, 4, little);
  const std::uint64_t sizeofcmds = Field(start, 20, 4, little);
  const std::uint64_t header = wide ? 32 : 28;
  if (sizeofcmds > kMaxLoadCommandBytes) {
    return "has " + std::to_string(sizeofcmds) + " bytes of Mach-O load commands, more than the " +
           std::to_string(kMaxLoadCommandBytes) + " this runtime accepts";
  }
  if (!file.Inside(base + header, sizeofcmds)) {
    return Truncated(file.Size(), "its load commands", End(base + header, sizeofcmds));
  }
  const auto commands = file.Read(base + header, static_cast<std::size_t>(sizeofcmds), problem);
  if (!problem.empty()) return problem;
  std::uint64_t at = 0;
  for (std::uint64_t i = 0; i < ncmds; ++i) {
    if (at + 8 > sizeofcmds) return "is not a valid Mach-O file: load command " + std::to_string(i) + " lies outside the load commands";
    const std::uint64_t cmd = Field(commands, static_cast<std::size_t>(at), 4, little);
    const std::uint64_t size = Field(commands, static_cast<std::size_t>(at + 4), 4, little);
    if (size < 8 || at + size > sizeofcmds) {
      return "is not a valid Mach-O file: load command " + std::to_string(i) + " has size " + std::to_string(size);
    }
    std::uint64_t fileoff = 0;
    std::uint64_t filesize = 0;
    bool segment = false;
    if (cmd == 0x19 && size >= 72) {  // LC_SEGMENT_64
      fileoff = Field(commands, static_cast<std::size_t>(at + 40), 8, little);
      filesize = Field(commands, static_cast<std::size_t>(at + 48), 8, little);
      segment = true;
    } else if (cmd == 0x1 && size >= 56) {  // LC_SEGMENT
      fileoff = Field(commands, static_cast<std::size_t>(at + 32), 4, little);
      filesize = Field(commands, static_cast<std::size_t>(at + 36), 4, little);
      segment = true;
    }
    if (segment && filesize != 0 && (filesize > image_size || fileoff > image_size - filesize)) {
      return Truncated(file.Size(), "its segment " + std::to_string(i), End(End(base, fileoff), filesize));
    }
    at += size;
  }
  return {};
}

std::string CheckMachO(const Bytes& file, const NativeBinary& native) {
  std::string problem;
  const auto magic = file.Read(0, 4, problem);
  if (!problem.empty()) return problem;
  if (Field(magic, 0, 4, false) != 0xcafebabeu) return CheckMachOImage(file, 0, file.Size(), native);
  // A universal ("fat") file: the loader takes the slice of this machine.
  if (!file.Inside(0, 8)) return Truncated(file.Size(), "its universal header", 8);
  const auto header = file.Read(0, 8, problem);
  if (!problem.empty()) return problem;
  const std::uint64_t count = Field(header, 4, 4, false);
  if (count > 64) return "is not a valid universal file: it claims " + std::to_string(count) + " slices";
  if (!file.Inside(8, count * 20)) return Truncated(file.Size(), "its slice table", 8 + count * 20);
  const auto slices = file.Read(8, static_cast<std::size_t>(count * 20), problem);
  if (!problem.empty()) return problem;
  std::string machines;
  for (std::uint64_t i = 0; i < count; ++i) {
    const std::size_t at = static_cast<std::size_t>(i * 20);
    const auto cputype = static_cast<std::uint32_t>(Field(slices, at, 4, false));
    const std::uint64_t offset = Field(slices, at + 8, 4, false);
    const std::uint64_t size = Field(slices, at + 12, 4, false);
    if (native.format == BinaryFormat::kMachO && cputype == native.machine) {
      if (!file.Inside(offset, size)) {
        return Truncated(file.Size(), "its " + MachineName(BinaryFormat::kMachO, cputype) + " slice", End(offset, size));
      }
      return CheckMachOImage(file, offset, size, native);
    }
    machines += (machines.empty() ? "" : ", ") + MachineName(BinaryFormat::kMachO, cputype);
  }
  return "is a universal Mach-O file for " + (machines.empty() ? std::string("no machine") : machines) +
         ", none of them " + MachineName(native.format, native.machine);
}

}  // namespace

NativeBinary ThisRuntimeBinary() {
  NativeBinary native;
#if defined(_WIN32)
  native.format = BinaryFormat::kPe;
#elif defined(__APPLE__)
  native.format = BinaryFormat::kMachO;
#else
  native.format = BinaryFormat::kElf;
#endif
  native.bits = sizeof(void*) == 8 ? 64 : 32;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
  native.little_endian = false;
#else
  native.little_endian = true;
#endif
  // The machine number in this format's numbering.
#if defined(__x86_64__) || defined(_M_X64)
  native.machine = native.format == BinaryFormat::kElf ? 62 : native.format == BinaryFormat::kPe ? 0x8664 : 0x01000007;
#elif defined(__aarch64__) || defined(_M_ARM64)
  native.machine = native.format == BinaryFormat::kElf ? 183 : native.format == BinaryFormat::kPe ? 0xaa64 : 0x0100000c;
#elif defined(__i386__) || defined(_M_IX86)
  native.machine = native.format == BinaryFormat::kElf ? 3 : native.format == BinaryFormat::kPe ? 0x14c : 7;
#elif defined(__arm__) || defined(_M_ARM)
  native.machine = native.format == BinaryFormat::kElf ? 40 : native.format == BinaryFormat::kPe ? 0x1c4 : 12;
#elif defined(__riscv)
  native.machine = 243;
#elif defined(__powerpc64__)
  native.machine = 21;
#elif defined(__s390x__)
  native.machine = 22;
#elif defined(__loongarch__)
  native.machine = 258;
#elif defined(__mips__)
  native.machine = 8;
#else
#error "library_header.cpp: add this architecture's machine number"
#endif
  return native;
}

std::string LibraryHeaderProblem(const ByteReader& read, std::uint64_t size, const NativeBinary& native) {
  if (size == 0) return "is empty (0 bytes), not a shared library";
  const Bytes file(read, size);
  std::string problem;
  const std::size_t head = size < 4 ? static_cast<std::size_t>(size) : 4;
  const auto magic = file.Read(0, head, problem);
  if (!problem.empty()) return problem;
  std::optional<BinaryFormat> format;
  if (head == 4 && magic[0] == 0x7f && magic[1] == 'E' && magic[2] == 'L' && magic[3] == 'F') {
    format = BinaryFormat::kElf;
  } else if (head >= 2 && magic[0] == 'M' && magic[1] == 'Z') {
    format = BinaryFormat::kPe;
  } else if (head == 4) {
    const std::uint64_t little = Field(magic, 0, 4, true);
    const std::uint64_t big = Field(magic, 0, 4, false);
    if (little == 0xfeedfacfu || little == 0xfeedfaceu || big == 0xfeedfacfu || big == 0xfeedfaceu ||
        big == 0xcafebabeu) {
      format = BinaryFormat::kMachO;
    }
  }
  if (!format) {
    return "is not a shared library: it does not start with the " +
           std::string(ShortFormatName(native.format)) + " magic number (" + std::to_string(size) + " bytes)";
  }
  if (*format != native.format) {
    // Name its machine too when the header is there, e.g. "a PE file (Windows) for x86_64".
    return "is " + std::string(FormatName(*format)) + ", this runtime loads " +
           ShortFormatName(native.format) + " libraries";
  }
  switch (*format) {
    case BinaryFormat::kElf: return CheckElf(file, native);
    case BinaryFormat::kPe: return CheckPe(file, native);
    case BinaryFormat::kMachO: return CheckMachO(file, native);
  }
  return {};
}

std::string LibraryHeaderProblem(const platform::RegularFile& file) {
  const ByteReader read = [&file](std::uint64_t offset, void* out, std::size_t count, std::string& why) {
    return file.ReadAt(offset, out, count, why);
  };
  return LibraryHeaderProblem(read, file.Size(), ThisRuntimeBinary());
}

}  // namespace backplane::loading
