//===- InitAllPasses.h - Register the ws-gemm passes ------------*- C++ -*-===//
//
// Registration of every ws-gemm pass (dialect transforms and conversions)
// and named pipeline with the global registry (library
// WsGemmRegisterAllPasses). A new pass declared in one of the Passes.td
// files is registered here through its generated register function; its
// library goes into WsGemmRegisterAllPasses's LINK_LIBS.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_INITALLPASSES_H
#define WSGEMM_INITALLPASSES_H

namespace mlir::wsgemm {

/// Registers every ws-gemm pass and named pipeline with the global registry.
void registerAllPasses();

} // namespace mlir::wsgemm

#endif // WSGEMM_INITALLPASSES_H
