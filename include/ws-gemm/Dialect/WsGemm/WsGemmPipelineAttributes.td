//===- WsGemmPipelineAttributes.td - Role and pipeline enums -*- tablegen -*-===//
//
// Enums and attributes of the explicit level. Included by WsGemmAttributes.td
// so that all wsgemm attributes are generated together.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_DIALECT_WSGEMM_WSGEMMPIPELINEATTRIBUTES_TD
#define WSGEMM_DIALECT_WSGEMM_WSGEMMPIPELINEATTRIBUTES_TD

include "ws-gemm/Dialect/WsGemm/WsGemmDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

// SKELETON: the explicit-level work item defines role enums here.

#endif // WSGEMM_DIALECT_WSGEMM_WSGEMMPIPELINEATTRIBUTES_TD
