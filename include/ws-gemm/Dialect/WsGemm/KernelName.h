//===- KernelName.h - What may name a kernel --------------------*- C++ -*-===//
//
// A wsgemm.gemm's symbol is its kernel's name in PTX (`.entry <name>`, the
// runtime's cuModuleGetFunction) and in the files the driver writes
// (DIR/<name>.json, .ptx, .cubin; DIR/<name>/ for a family). One rule for
// both, checked by the op's verifier (docs/limits.md, "Kernel names"):
//
//   - a PTX identifier: a letter then letters, digits, '_' or '$'; or '_'
//     or '$' then at least one of those (PTX ISA, "Identifiers"). NVPTX
//     aborts on other bytes of a kernel's name, ptxas refuses a lone '_';
//   - at most kMaxKernelNameLength characters: PTX guarantees 1024, the
//     files must fit a 255-byte file name with their suffix
//     (`<name>.cubin.tmp`);
//   - not a name the kernel's PTX module already holds: PTX's predefined
//     `WARP_SZ`, the shared memory `wsgemm_smem`, libdevice's `__nv_*`.
//
// Compilers that name kernels after text they did not write (the linalg
// front end names them after functions) map it with legalKernelName.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_DIALECT_WSGEMM_KERNELNAME_H
#define WSGEMM_DIALECT_WSGEMM_KERNELNAME_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringRef.h"

#include <optional>
#include <string>

namespace mlir::wsgemm {

/// The longest kernel name: its longest file name, `<name>.cubin.tmp`,
/// within 255 bytes (NAME_MAX), with room to spare.
constexpr size_t kMaxKernelNameLength = 240;

/// Whether `name` is a PTX identifier (the character rule only: no length
/// limit, no reserved names), i.e. one that NVPTX prints as it is and
/// ptxas parses.
bool isPtxIdentifier(StringRef name);

/// Why `name` cannot name a kernel, as the end of a sentence that starts
/// "symbol " (the rule broken, and the offending name and byte); nullopt
/// when it can.
std::optional<std::string> checkKernelName(StringRef name);

/// `name` for a diagnostic: double-quoted with non-printable and non-ASCII
/// bytes escaped, its first 48 bytes only for a longer name (then followed
/// by its length).
std::string quoteName(StringRef name);

/// A kernel name made from any text that stays valid with any suffix of
/// letters, digits and '_' up to `maxLength` characters in all: bytes other
/// than letters, digits and '_' become '_', a name that does not start
/// with a letter gets "k_" in front (so never '_', '$' or '__nv_' first),
/// and it is cut to `maxLength` (at least 8).
std::string legalKernelName(StringRef text,
                            size_t maxLength = kMaxKernelNameLength);

} // namespace mlir::wsgemm

#endif // WSGEMM_DIALECT_WSGEMM_KERNELNAME_H
