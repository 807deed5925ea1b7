//===- FuzzMLIR.h - What the MLIR fuzz targets share ------------*- C++ -*-===//
//
// One registry (every upstream dialect and extension plus epi and wsgemm,
// as ws-gemm-opt and ws-gemm-compile register them), built once per
// process, and a parse of the fuzzer's bytes into a fresh context per input
// whose diagnostics are swallowed: a diagnostic is the right answer to bad
// input; a crash, a sanitizer report or a hang is a bug.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_FUZZ_FUZZMLIR_H
#define WSGEMM_FUZZ_FUZZMLIR_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <cstddef>
#include <cstdint>

namespace mlir::wsgemm::fuzz {

/// The registry of ws-gemm-compile (built on first use).
const mlir::DialectRegistry &registry();

/// A context over registry(), single-threaded (a fuzz input is small and
/// libFuzzer wants one thread), that prints nothing on a diagnostic.
void configureContext(mlir::MLIRContext &context);

/// Parses `data` as a module (verifying it, as the parser does); null on a
/// syntax or verifier error.
mlir::OwningOpRef<mlir::ModuleOp> parse(mlir::MLIRContext &context,
                                        const uint8_t *data, size_t size);

/// Each wsgemm.gemm name in `module` (verified), the first time this
/// process meets it, as the name of a one-parameter kernel that
/// gpu-module-to-binary prints to PTX with NVPTX, as the driver does: NVPTX
/// aborts on a symbol it cannot print, so a name the verifier accepts
/// wrongly is a crash. A few milliseconds per new name.
void printKernelNamesWithNVPTX(mlir::ModuleOp module);

/// One fuzz input: a fresh context over registry() (configureContext) and
/// the bytes parsed in it; `module` is null on a syntax or verifier error.
struct Input {
  Input(const uint8_t *data, size_t size);
  mlir::MLIRContext context;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

} // namespace mlir::wsgemm::fuzz

#endif // WSGEMM_FUZZ_FUZZMLIR_H
