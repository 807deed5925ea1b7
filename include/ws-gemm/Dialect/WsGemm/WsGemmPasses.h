//===- WsGemmPasses.h - wsgemm dialect passes -------------------*- C++ -*-===//

#ifndef WSGEMM_DIALECT_WSGEMM_WSGEMMPASSES_H
#define WSGEMM_DIALECT_WSGEMM_WSGEMMPASSES_H

#include "ws-gemm/Dialect/WsGemm/WsGemmOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir::wsgemm {

#define GEN_PASS_DECL
#include "ws-gemm/Dialect/WsGemm/WsGemmPasses.h.inc"

#define GEN_PASS_REGISTRATION
#include "ws-gemm/Dialect/WsGemm/WsGemmPasses.h.inc"

} // namespace mlir::wsgemm

#endif // WSGEMM_DIALECT_WSGEMM_WSGEMMPASSES_H
