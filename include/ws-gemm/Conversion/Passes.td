//===- Passes.td - ws-gemm conversion passes ---------------*- tablegen -*-===//

#ifndef WSGEMM_CONVERSION_PASSES_TD
#define WSGEMM_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def WsGemmSpecialize : Pass<"wsgemm-specialize", "::mlir::ModuleOp"> {
  let summary = "Build a warp-specialized kernel with explicit pipelines for each planned wsgemm.gemm";
  let description = [{
    Each planned `wsgemm.gemm` becomes an `llvm.func` kernel inside a
    `gpu.module` that carries an `#nvvm.target`. The kernel is the explicit
    level of the wsgemm dialect: it carves its dynamic shared memory, creates
    the mainloop pipeline (StagesAB, `load -> mma`), the epilogue's load
    pipeline (StagesC, `epilogue_load -> mma`, when C or aux matrices are
    read) and its TMA store pipeline (StagesD), and splits into roles with
    `wsgemm.warp_specialize`: a producer warp streaming A/B k-tiles by TMA,
    an epilogue-load warp streaming C and aux subtiles by TMA, and the
    consumer warpgroups that run wgmma and the epilogue. The EVT is visited
    per epilogue subtile on the accumulator fragments (wgmma's thread-to-(m,
    n) map) and lowered to arith/math, stmatrix or st.shared, proxy fences,
    named barriers and TMA stores. `--wsgemm-lower-pipelines` then lowers
    roles and pipelines to NVVM.

    The kernel's manifest (docs/manifest.md) is attached to the kernel as
    the string attribute `wsgemm.manifest`, which ws-gemm-compile writes
    next to the cubin. Named activations are lowered to arith/math after the
    manifest has recorded them.
  }];
  let options = [
    Option<"chip", "chip", "std::string", "\"sm_90a\"", "Target SM architecture">,
    Option<"features", "features", "std::string", "\"+ptx80\"", "PTX features">,
    Option<"optLevel", "opt-level", "unsigned", "3", "NVPTX optimization level">,
  ];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect",
    "::mlir::wsgemm::WsGemmDialect"
  ];
}

def WsGemmLowerPipelines : Pass<"wsgemm-lower-pipelines"> {
  let summary = "Lower warp roles and pipelines to NVVM mbarriers, bulk async-groups and setmaxnreg";
  let description = [{
    `wsgemm.warp_specialize` becomes a CTA barrier and a dispatch on the warp
    index (warpgroup 0: `load` on warp 0, `epilogue_load` on warp 1; `mma`
    on the next warpgroups), with `setmaxnreg.dec` / `setmaxnreg.inc` run by
    whole warpgroups. Pipelines become arrays of full and empty mbarriers
    (given by `pipeline_create in(...)` or allocated as a static shared
    array), pipeline states three i32 registers (index, phase, count), and
    the pipeline ops `mbarrier.init` / `arrive` / `arrive.expect_tx` /
    `expect_tx` / `try_wait.parity` and `cp.async.bulk.commit_group` /
    `wait_group[.read]`. Loops that carry pipeline states are converted
    structurally. Run it on the module that holds the kernels (it adds the
    static barrier arrays there).

    ```mlir
    wsgemm.consumer_wait %p, %s : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
    // becomes
    %bar = llvm.getelementptr %base[%index] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
    nvvm.mbarrier.try_wait.parity %bar, %phase, %ticks : !llvm.ptr<3>, i32, i32
    ```
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"
  ];
}

#endif // WSGEMM_CONVERSION_PASSES_TD
