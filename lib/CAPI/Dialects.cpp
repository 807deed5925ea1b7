//===- Dialects.cpp - C API: the epi and wsgemm dialects ------------------===//

#include "ws-gemm-c/Dialects.h"
#include "ws-gemm/Dialect/Epi/EpiDialect.h"
#include "ws-gemm/Dialect/WsGemm/WsGemmDialect.h"
#include "ws-gemm/Driver/Compile.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Epi, epi, mlir::epi::EpiDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(WsGemm, wsgemm,
                                      mlir::wsgemm::WsGemmDialect)

void wsgemmRegisterCompilerDialects(MlirDialectRegistry registry) {
  mlir::wsgemm::registerCompilerDialects(*unwrap(registry));
}
