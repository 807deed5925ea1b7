//===- WsGemmPasses.td - wsgemm dialect passes -------------*- tablegen -*-===//

#ifndef WSGEMM_DIALECT_WSGEMM_WSGEMMPASSES_TD
#define WSGEMM_DIALECT_WSGEMM_WSGEMMPASSES_TD

include "mlir/Pass/PassBase.td"

def WsGemmPlan : Pass<"wsgemm-plan"> {
  let summary = "Fill unset GEMM config knobs with CUTLASS defaults and check legality";
  let dependentDialects = ["::mlir::wsgemm::WsGemmDialect"];
}

#endif // WSGEMM_DIALECT_WSGEMM_WSGEMMPASSES_TD
