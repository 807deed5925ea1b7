/*===-- ws-gemm-c/Dialects.h - C API: the epi and wsgemm dialects -*- C -*-===*\
|*                                                                            *|
|* Dialect handles in MLIR's C API convention: register them with             *|
|* mlirDialectHandleRegisterDialect(handle, context) or insert them into a    *|
|* registry with mlirDialectHandleInsertDialect. Library: WsGemmCAPI          *|
|* (libWsGemmCAPI.so, which also carries MLIR's own C API).                   *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef WSGEMM_C_DIALECTS_H
#define WSGEMM_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/** mlirGetDialectHandle__epi__(): the epilogue (EVT) dialect. */
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Epi, epi);
/** mlirGetDialectHandle__wsgemm__(): the kernel and pipeline dialect. */
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(WsGemm, wsgemm);

/** Inserts epi, wsgemm and every upstream dialect, extension and LLVM IR
 *  translation that a wsgemm.gemm's region and its lowering use into
 *  `registry` (what wsgemmCompile's own context holds). */
MLIR_CAPI_EXPORTED void wsgemmRegisterCompilerDialects(
    MlirDialectRegistry registry);

#ifdef __cplusplus
}
#endif

#endif /* WSGEMM_C_DIALECTS_H */
