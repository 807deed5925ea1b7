//===- WsGemmPasses.td - wsgemm dialect passes -------------*- tablegen -*-===//

#ifndef WSGEMM_DIALECT_WSGEMM_WSGEMMPASSES_TD
#define WSGEMM_DIALECT_WSGEMM_WSGEMMPASSES_TD

include "mlir/Pass/PassBase.td"

def WsGemmPlan : Pass<"wsgemm-plan"> {
  let summary = "Fill unset GEMM config knobs with CUTLASS defaults and check legality";
  let description = [{
    For every `wsgemm.gemm`: reads what the epilogue needs (C, aux matrices,
    vectors, reductions), fills every unset `#wsgemm.config` knob with
    CUTLASS's SM90 builder defaults (Planning.h says which and where from),
    checks the result (wgmma tile shapes, schedule rules, epilogue tile,
    register budgets, TMA 16-byte strides of a static shape, and the shared
    memory budget) and writes back the complete config plus the kernel's
    dynamic shared memory in `wsgemm.smem_bytes`. Errors carry the op's
    location and the numbers; an SMEM overflow gets one note per item.
    Run after `--epi-expand-presets`.

    ```mlir
    wsgemm.gemm @g a(f16) b(f16) d(f16) { ... }
    // becomes
    wsgemm.gemm @g a(f16) b(f16) d(f16) config #wsgemm.config<tile =
        [128, 128, 64], cluster = [1, 1, 1], stages = 6, ...>
        attributes {wsgemm.smem_bytes = 213088 : i64} { ... }
    ```
  }];
  let options = [
    Option<"smemCapacity", "smem-capacity", "int64_t",
           /*default=*/"232448",
           "Dynamic shared memory per CTA in bytes (sm_90: 232448)">,
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90a\"",
           "Target chip: sm_80, sm_86, sm_89 (cp.async + mma.sync kernels, "
           "their shared memory per block) or sm_90a">,
  ];
  let dependentDialects = ["::mlir::wsgemm::WsGemmDialect"];
}

#endif // WSGEMM_DIALECT_WSGEMM_WSGEMMPASSES_TD
