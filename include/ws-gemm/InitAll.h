//===- InitAll.h - Register ws-gemm dialects and passes ---------*- C++ -*-===//
//
// One place for tools and embedders to register everything ws-gemm provides.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_INITALL_H
#define WSGEMM_INITALL_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::wsgemm {

/// Adds the epi and wsgemm dialects to `registry`.
void registerAllDialects(DialectRegistry &registry);

/// Registers every ws-gemm pass and named pipeline with the global registry.
void registerAllPasses();

} // namespace mlir::wsgemm

#endif // WSGEMM_INITALL_H
