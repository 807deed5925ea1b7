//===- EpiDialect.h - Epilogue fusion (EVT) dialect -------------*- C++ -*-===//
//
// The `epi` dialect: dialect class, enums, attributes and the
// EpilogueOpInterface.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_DIALECT_EPI_EPIDIALECT_H
#define WSGEMM_DIALECT_EPI_EPIDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"

#include "ws-gemm/Dialect/Epi/EpiOpsDialect.h.inc"
#include "ws-gemm/Dialect/Epi/EpiEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ws-gemm/Dialect/Epi/EpiAttributes.h.inc"

#include "ws-gemm/Dialect/Epi/EpiInterfaces.h.inc"

#endif // WSGEMM_DIALECT_EPI_EPIDIALECT_H
