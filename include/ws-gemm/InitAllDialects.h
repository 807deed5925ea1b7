//===- InitAllDialects.h - Register the ws-gemm dialects --------*- C++ -*-===//
//
// Registration of the epi and wsgemm dialects alone (library
// WsGemmRegisterAllDialects): enough to parse, print and verify ws-gemm IR,
// without linking any pass or conversion. A tool that also runs passes
// includes InitAllPasses.h (or InitAll.h for both).
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_INITALLDIALECTS_H
#define WSGEMM_INITALLDIALECTS_H

namespace mlir {
class DialectRegistry;
class MLIRContext;
} // namespace mlir

namespace mlir::wsgemm {

/// Adds the epi and wsgemm dialects to `registry`.
void registerAllDialects(DialectRegistry &registry);

/// Appends the epi and wsgemm dialects to the context's registry.
void registerAllDialects(MLIRContext &context);

} // namespace mlir::wsgemm

#endif // WSGEMM_INITALLDIALECTS_H
