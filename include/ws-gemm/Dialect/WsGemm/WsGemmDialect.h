//===- WsGemmDialect.h - Warp-specialized GEMM dialect ----------*- C++ -*-===//
//
// The `wsgemm` dialect: dialect class, enums, attributes and types.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_DIALECT_WSGEMM_WSGEMMDIALECT_H
#define WSGEMM_DIALECT_WSGEMM_WSGEMMDIALECT_H

#include "ws-gemm/Dialect/Epi/EpiDialect.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"

#include "ws-gemm/Dialect/WsGemm/WsGemmDialect.h.inc"
#include "ws-gemm/Dialect/WsGemm/WsGemmEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ws-gemm/Dialect/WsGemm/WsGemmAttributes.h.inc"

#define GET_TYPEDEF_CLASSES
#include "ws-gemm/Dialect/WsGemm/WsGemmTypes.h.inc"

#endif // WSGEMM_DIALECT_WSGEMM_WSGEMMDIALECT_H
