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
    "::mlir::nvgpu::NVGPUDialect", "::mlir::wsgemm::WsGemmDialect"
  ];
}

def WsGemmLowerPipelines : Pass<"wsgemm-lower-pipelines"> {
  let summary = "Lower warp roles and pipelines to nvgpu mbarriers and TMA loads, bulk async-groups and setmaxnreg";
  let description = [{
    `wsgemm.warp_specialize` becomes a CTA barrier and a dispatch on the warp
    index (warpgroup 0: `load` on warp 0, `epilogue_load` on warp 1; `mma`
    on the next warpgroups), with `setmaxnreg.dec` / `setmaxnreg.inc` run by
    whole warpgroups. A pipeline of N stages becomes an
    `!nvgpu.mbarrier.group` of 2 * N barriers (full barrier i at i, empty
    barrier i at N + i): the shared memory given by `pipeline_create
    in(...)`, or `nvgpu.mbarrier.create`. Pipeline states become three i32
    values (index, phase, count); the pipeline ops become
    `nvgpu.mbarrier.init` / `arrive` / `arrive.expect_tx` /
    `try_wait.parity`, `producer_tma_load` becomes `nvgpu.tma.async.load`,
    and what nvgpu has no op for stays NVVM (`mbarrier.expect_tx`,
    `cp.async.bulk.commit_group` / `wait_group[.read]`,
    `fence.mbarrier_init`). Loops that carry pipeline states are converted
    structurally. `--convert-nvgpu-to-nvvm` comes next.

    ```mlir
    wsgemm.consumer_wait %p, %s : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
    // becomes
    %slot = arith.index_castui %index : i32 to index
    %parity = arith.trunci %phase : i32 to i1
    nvgpu.mbarrier.try_wait.parity %barriers[%slot], %parity, %ticks
        : !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 8>
    ```
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::gpu::GPUDialect", "::mlir::nvgpu::NVGPUDialect",
    "::mlir::scf::SCFDialect", "::mlir::arith::ArithDialect"
  ];
}

#endif // WSGEMM_CONVERSION_PASSES_TD
