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
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpDefinition.h"

#include "ws-gemm/Dialect/Epi/EpiOpsDialect.h.inc"
#include "ws-gemm/Dialect/Epi/EpiEnums.h.inc"

#define GET_ATTRDEF_CLASSES
#include "ws-gemm/Dialect/Epi/EpiAttributes.h.inc"

#include "ws-gemm/Dialect/Epi/EpiInterfaces.h.inc"

namespace mlir::epi {
/// Parses `#epi.activation<...>` at the parser's position. MLIR's generic
/// attribute parser consumes a `: type` that follows a dialect attribute; when
/// it did, `trailingType` receives that type (else it is left null), so that
/// an op whose format ends in `: type` right after the attribute can use it.
ParseResult parseActivationWithTrailingType(AsmParser &parser,
                                            ActivationAttr &activation,
                                            Type &trailingType);
} // namespace mlir::epi

#endif // WSGEMM_DIALECT_EPI_EPIDIALECT_H
