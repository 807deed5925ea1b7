//===- Epi.td - The epi dialect, whole ---------------------*- tablegen -*-===//
//
// Everything the epi dialect defines (dialect, attributes, interfaces, ops),
// for tools that want the whole dialect at once: the generated reference
// (docs/generated/EpiDialect.md, -gen-dialect-doc).
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_DIALECT_EPI_EPI_TD
#define WSGEMM_DIALECT_EPI_EPI_TD

include "ws-gemm/Dialect/Epi/EpiOps.td"

#endif // WSGEMM_DIALECT_EPI_EPI_TD
