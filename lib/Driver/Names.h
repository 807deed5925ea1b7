//===- Names.h - Names that reach NVPTX and the file system -----*- C++ -*-===//
//
// Internal to the driver. The verifier keeps a wsgemm.gemm's name to
// KernelName.h's rule; these check what the driver itself hands on, so
// that no input, whatever level it enters at, aborts NVPTX's printer or
// writes outside the output directory:
//   checkPtxSymbols   the symbols NVPTX prints as written (external
//                     linkage, in a gpu.module) are PTX identifiers;
//   checkKernelNames  the kernels a module compiles to have valid names
//                     that differ in more than case (each names files);
//   checkOutputNames  the same for kernels about to be written, and each a
//                     valid kernel name (writeKernels' callers need not
//                     come from compileModule).
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_LIB_DRIVER_NAMES_H
#define WSGEMM_LIB_DRIVER_NAMES_H

#include "ws-gemm/Driver/Compile.h"

#include "mlir/IR/Location.h"

#include <utility>

namespace mlir::wsgemm::driver {

/// Fails, with an error at each offending op, when a gpu.module in
/// `module` defines or declares a symbol with non-local linkage that is no
/// PTX identifier (NVPTX renames local symbols only, and aborts on the
/// others). LLVM intrinsics (`llvm.*` declarations) are not symbols there.
LogicalResult checkPtxSymbols(ModuleOp module);

/// Fails, with an error at the kernel, when one of `kernels` (name,
/// location) breaks KernelName.h's rule, and with an error at the later
/// kernel and a note at the earlier when two have names equal without
/// case: their files would be one on a file system that ignores case.
LogicalResult
checkKernelNames(ArrayRef<std::pair<std::string, Location>> kernels);

/// An error naming the kernel, or both kernels, when a kernel's name breaks
/// KernelName.h's rule or two names are equal without case.
llvm::Error checkOutputNames(ArrayRef<CompiledKernel> kernels);

/// Whether `name` is safe as one path component the driver creates: a
/// non-empty run of letters, digits, '_', '.' and '-' that is not "." or
/// "..". Variant ids (v1.128x256x64.cooperative) are.
bool isSafePathComponent(StringRef name);

} // namespace mlir::wsgemm::driver

#endif // WSGEMM_LIB_DRIVER_NAMES_H
