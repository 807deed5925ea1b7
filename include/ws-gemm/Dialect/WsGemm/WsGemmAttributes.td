//===- WsGemmAttributes.td - GEMM config attributes --------*- tablegen -*-===//

#ifndef WSGEMM_DIALECT_WSGEMM_WSGEMMATTRIBUTES_TD
#define WSGEMM_DIALECT_WSGEMM_WSGEMMATTRIBUTES_TD

include "ws-gemm/Dialect/WsGemm/WsGemmDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def WsGemm_Major : I32EnumAttr<"Major", "the contiguous dimension of an operand", [
      I32EnumAttrCase<"k_major", 0>,
      I32EnumAttrCase<"m_major", 1>,
      I32EnumAttrCase<"n_major", 2>,
    ]> {
  let cppNamespace = "::mlir::wsgemm";
  let genSpecializedAttr = 0;
}
def WsGemm_MajorAttr : EnumAttr<WsGemm_Dialect, WsGemm_Major, "major">;

def WsGemm_ConfigAttr : AttrDef<WsGemm_Dialect, "Config"> {
  let mnemonic = "config";
  let summary = "CUTLASS builder knobs of a warp-specialized GEMM";
  // SKELETON: the config work item adds every knob of DESIGN.md section 3.
  let parameters = (ins OptionalParameter<"::mlir::DenseI64ArrayAttr">:$tile);
  let assemblyFormat = "`<` struct(params) `>`";
}

include "ws-gemm/Dialect/WsGemm/WsGemmPipelineAttributes.td"

#endif // WSGEMM_DIALECT_WSGEMM_WSGEMMATTRIBUTES_TD
