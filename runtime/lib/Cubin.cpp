//===- Cubin.cpp - A cubin's structure, checked before the driver ---------===//
//
// Reads only the ELF64 little-endian fields it needs, with explicit byte
// offsets (no <elf.h>, no alignment assumptions about the buffer).
//
//===----------------------------------------------------------------------===//

#include "ws-gemm-runtime/Cubin.h"

#include <cstdint>
#include <cstring>

namespace wsgemm::runtime {
namespace {

uint64_t read(const char *p, unsigned bytes) {
  uint64_t v = 0;
  for (unsigned i = 0; i < bytes; ++i)
    v |= uint64_t(static_cast<unsigned char>(p[i])) << (8 * i);
  return v;
}

/// Fails when [offset, offset + count * entry) is not inside `size`.
Status inside(const char *what, uint64_t offset, uint64_t count,
              uint64_t entry, size_t size) {
  // count and entry come from 16-bit fields: no overflow in 64 bits.
  uint64_t bytes = count * entry;
  if (offset > size || bytes > size - offset)
    return errorf("truncated: ", what, " end at byte ", offset + bytes,
                  ", the file has ", size);
  return Status::success();
}

} // namespace

Status checkCubinImage(const char *data, size_t size) {
  if (size == 0)
    return errorf("empty (0 bytes)");
  if (size < 4 || std::memcmp(data, "\x7f" "ELF", 4) != 0) {
    if (!std::memchr(data, 0, size))
      return errorf("neither an ELF cubin (no \\x7fELF magic) nor a "
                    "NUL-terminated image (PTX or fatbinary): the driver "
                    "would read past its ",
                    size, " bytes");
    return Status::success();
  }
  constexpr size_t kHeader = 64; // Elf64_Ehdr
  if (size < kHeader)
    return errorf("truncated: ", size,
                  " bytes, shorter than the 64-byte ELF header");
  if (data[4] != 2 || data[5] != 1)
    return errorf("not a 64-bit little-endian ELF image (class ", int(data[4]),
                  ", data ", int(data[5]), ")");
  uint64_t phoff = read(data + 32, 8), shoff = read(data + 40, 8);
  uint64_t phentsize = read(data + 54, 2), phnum = read(data + 56, 2);
  uint64_t shentsize = read(data + 58, 2), shnum = read(data + 60, 2);
  if (phnum)
    WSGEMM_TRY(inside("the ELF program headers", phoff, phnum, phentsize,
                      size));
  if (shnum) {
    if (shentsize < 64)
      return errorf("corrupt ELF header: section header size ", shentsize,
                    " < 64");
    WSGEMM_TRY(inside("the ELF section headers", shoff, shnum, shentsize,
                      size));
    for (uint64_t i = 0; i < shnum; ++i) {
      const char *sh = data + shoff + i * shentsize; // Elf64_Shdr
      uint64_t type = read(sh + 4, 4);
      uint64_t offset = read(sh + 24, 8), bytes = read(sh + 32, 8);
      constexpr uint64_t kNoBits = 8; // SHT_NOBITS: no file contents
      if (type == kNoBits || type == 0)
        continue;
      if (offset > size || bytes > size - offset)
        return errorf("truncated: ELF section ", i, " ends at byte ",
                      offset + bytes, ", the file has ", size);
    }
  }
  for (uint64_t i = 0; i < phnum; ++i) {
    const char *ph = data + phoff + i * phentsize; // Elf64_Phdr
    if (phentsize < 56)
      return errorf("corrupt ELF header: program header size ", phentsize,
                    " < 56");
    uint64_t offset = read(ph + 8, 8), bytes = read(ph + 32, 8);
    if (offset > size || bytes > size - offset)
      return errorf("truncated: ELF segment ", i, " ends at byte ",
                    offset + bytes, ", the file has ", size);
  }
  return Status::success();
}

} // namespace wsgemm::runtime
