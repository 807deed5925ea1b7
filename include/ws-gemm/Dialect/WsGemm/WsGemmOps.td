//===- WsGemmOps.td - Declarative GEMM ops -----------------*- tablegen -*-===//

#ifndef WSGEMM_DIALECT_WSGEMM_WSGEMMOPS_TD
#define WSGEMM_DIALECT_WSGEMM_WSGEMMOPS_TD

include "ws-gemm/Dialect/WsGemm/WsGemmDialect.td"
include "ws-gemm/Dialect/WsGemm/WsGemmAttributes.td"
include "ws-gemm/Dialect/Epi/EpiInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/IR/BuiltinAttributes.td"

def WsGemm_GemmOp : WsGemm_Op<"gemm", [
    Symbol, IsolatedFromAbove, SingleBlock,
    DeclareOpInterfaceMethods<Epi_EpilogueOpInterface>]> {
  let summary = "a warp-specialized GEMM kernel with a fused epilogue";
  // SKELETON: the gemm work item finalises operands, layouts and format.
  let arguments = (ins SymbolNameAttr:$sym_name, TypeAttr:$a_type,
                       TypeAttr:$b_type, OptionalAttr<TypeAttr>:$c_type,
                       TypeAttr:$d_type,
                       OptionalAttr<WsGemm_ConfigAttr>:$config);
  let regions = (region SizedRegion<1>:$epilogue);
  let assemblyFormat = [{
    $sym_name `a` `(` $a_type `)` `b` `(` $b_type `)` (`c` `(` $c_type^ `)`)?
    `d` `(` $d_type `)` (`config` $config^)? attr-dict-with-keyword $epilogue
  }];
  let hasRegionVerifier = 1;
}

#endif // WSGEMM_DIALECT_WSGEMM_WSGEMMOPS_TD
