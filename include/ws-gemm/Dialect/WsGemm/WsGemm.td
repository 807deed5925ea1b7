//===- WsGemm.td - The wsgemm dialect, whole ---------------*- tablegen -*-===//
//
// Everything the wsgemm dialect defines: the declarative level (wsgemm.gemm,
// #wsgemm.config) and the explicit one (roles, pipelines, their types and
// attributes), for tools that want the whole dialect at once: the generated
// reference (docs/generated/WsGemmDialect.md, -gen-dialect-doc).
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_DIALECT_WSGEMM_WSGEMM_TD
#define WSGEMM_DIALECT_WSGEMM_WSGEMM_TD

include "ws-gemm/Dialect/WsGemm/WsGemmOps.td"
include "ws-gemm/Dialect/WsGemm/WsGemmPipelineOps.td"

#endif // WSGEMM_DIALECT_WSGEMM_WSGEMM_TD
