//===- WsGemmPipelineAttributes.td - Role and pipeline enums -*- tablegen -*-===//
//
// Enums and attributes of the explicit level: the warp roles of a
// warp-specialized kernel and the two start states of a pipeline iterator.
// Included by WsGemmAttributes.td so that all wsgemm enums and attributes are
// generated together (WsGemmEnums.h.inc, WsGemmAttributes.h.inc); the pipeline
// types in WsGemmPipelineOps.td use `Role` as a type parameter.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_DIALECT_WSGEMM_WSGEMMPIPELINEATTRIBUTES_TD
#define WSGEMM_DIALECT_WSGEMM_WSGEMMPIPELINEATTRIBUTES_TD

include "ws-gemm/Dialect/WsGemm/WsGemmDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

//===----------------------------------------------------------------------===//
// Role
//===----------------------------------------------------------------------===//

def WsGemm_Role : I32EnumAttr<"Role", "a warp role of a warp-specialized kernel", [
      // The producer warp: one elected thread issues the TMA loads of A and B
      // (CUTLASS ProducerWarpRole::Mainloop).
      I32EnumAttrCase<"load", 0>,
      // The warp that issues the TMA loads of C and the epilogue's auxiliary
      // inputs (CUTLASS ProducerWarpRole::Epilogue).
      I32EnumAttrCase<"epilogue_load", 1>,
      // The consumer warpgroups: wgmma, then the epilogue's compute, R2S and
      // TMA stores.
      I32EnumAttrCase<"mma", 2>,
    ]> {
  let cppNamespace = "::mlir::wsgemm";
  let genSpecializedAttr = 0;
}
// Standalone form `#wsgemm.role<mma>`; op formats print the bare keyword.
def WsGemm_RoleAttr : EnumAttr<WsGemm_Dialect, WsGemm_Role, "role"> {
  let assemblyFormat = "`<` $value `>`";
}

def WsGemm_RoleArrayAttr
    : TypedArrayAttrBase<WsGemm_RoleAttr, "array of warp roles">;

//===----------------------------------------------------------------------===//
// PipelineAgent
//===----------------------------------------------------------------------===//

def WsGemm_PipelineAgent : I32EnumAttr<"PipelineAgent",
    "which side of a pipeline a pipeline-state iterator serves", [
      // Starts at (index 0, phase 1, count 0): the buffers start empty, so the
      // producer's first wait on each empty barrier must succeed at once
      // (CUTLASS make_producer_start_state).
      I32EnumAttrCase<"producer", 0>,
      // Starts at (index 0, phase 0, count 0).
      I32EnumAttrCase<"consumer", 1>,
    ]> {
  let cppNamespace = "::mlir::wsgemm";
  let genSpecializedAttr = 0;
}
def WsGemm_PipelineAgentAttr
    : EnumAttr<WsGemm_Dialect, WsGemm_PipelineAgent, "pipeline_agent"> {
  let assemblyFormat = "`<` $value `>`";
}

#endif // WSGEMM_DIALECT_WSGEMM_WSGEMMPIPELINEATTRIBUTES_TD
