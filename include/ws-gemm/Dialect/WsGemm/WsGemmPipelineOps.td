//===- WsGemmPipelineOps.td - Warp roles and pipelines -*- tablegen -*-===//
//
// The explicit level: warp-specialized role regions and pipelines as values.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_DIALECT_WSGEMM_WSGEMMPIPELINEOPS_TD
#define WSGEMM_DIALECT_WSGEMM_WSGEMMPIPELINEOPS_TD

include "ws-gemm/Dialect/WsGemm/WsGemmDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "ws-gemm/Dialect/WsGemm/WsGemmPipelineAttributes.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class WsGemm_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<WsGemm_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

// SKELETON: the explicit-level work item defines the types and ops.
def WsGemm_PipelineType : WsGemm_Type<"Pipeline", "pipeline"> {
  let summary = "an mbarrier pipeline with a fixed number of stages";
  let parameters = (ins "int64_t":$stages);
  let assemblyFormat = "`<` $stages `>`";
}

#endif // WSGEMM_DIALECT_WSGEMM_WSGEMMPIPELINEOPS_TD
