//===- Passes.td - ws-gemm conversion passes ---------------*- tablegen -*-===//

#ifndef WSGEMM_CONVERSION_PASSES_TD
#define WSGEMM_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def WsGemmEmitManifest : Pass<"wsgemm-emit-manifest", "::mlir::ModuleOp"> {
  let summary = "Attach to each planned wsgemm.gemm the manifest the runtime launches it with";
  let description = [{
    Writes the manifest (docs/manifest.md) of each planned `wsgemm.gemm` as
    the string attribute `wsgemm.manifest` on the op: kernel name, block and
    cluster dims, dynamic SMEM, grid rule, operand types and layouts, the
    parameter list in launch order (from the plan's KernelLayout, the same
    one the kernel is built from) and the EVT as an expression graph a CPU
    reference can evaluate. `--wsgemm-specialize` moves the attribute to the
    kernel function, and ws-gemm-compile writes it next to the cubin.
  }];
  let options = [
    Option<"chip", "chip", "std::string", "\"sm_90a\"", "Target SM architecture recorded in the manifest">,
  ];
}

def WsGemmSpecialize : Pass<"wsgemm-specialize", "::mlir::ModuleOp"> {
  let summary = "Build a warp-specialized kernel with explicit pipelines for each planned wsgemm.gemm";
  let description = [{
    Each planned `wsgemm.gemm` becomes an `llvm.func` kernel inside a
    `gpu.module` that carries an `#nvvm.target`, composed by the kernel
    schedule from the collectives (lib/Conversion/Collectives): the tile
    scheduler, the mainloop (TMA A/B, wgmma) and the epilogue (TMA C/aux
    loads, per subtile an `epi.visit` of the EVT on the accumulator
    fragment, R2S, TMA stores, reductions). The kernel is the explicit
    level of the wsgemm dialect: it carves its dynamic shared memory at the
    plan's offsets, creates the mainloop pipeline (StagesAB,
    `load -> mma`), the epilogue's load pipeline (StagesC,
    `epilogue_load -> mma`, when C or aux matrices are read) and its TMA
    store pipeline, and splits into roles with `wsgemm.warp_specialize`.
    Every decision comes from the plan (`--wsgemm-plan`); an op whose plan
    is missing or stale is refused. The op's `wsgemm.manifest` moves to the
    kernel. `--epi-visit-fragments` and `--wsgemm-lower-pipelines` come
    next.
  }];
  let options = [
    Option<"chip", "chip", "std::string", "\"sm_90a\"", "Target SM architecture">,
    Option<"features", "features", "std::string", "\"+ptx80\"", "PTX features">,
    Option<"optLevel", "opt-level", "unsigned", "3", "NVPTX optimization level">,
  ];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
    "::mlir::arith::ArithDialect", "::mlir::vector::VectorDialect",
    "::mlir::nvgpu::NVGPUDialect", "::mlir::wsgemm::WsGemmDialect",
    "::mlir::epi::EpiDialect"
  ];
}

def EpiVisitFragments : Pass<"epi-visit-fragments"> {
  let summary = "Evaluate each epi.visit (the EVT on an accumulator fragment) element by element";
  let description = [{
    The EVT visit. Each `epi.visit` becomes, for every element of its
    fragment, a copy of its epilogue region whose leaves read the element's
    sources (`epi.load_src`, `epi.aux_load`, `epi.load_vec_m/n`: element i
    of the named fragment; `epi.scalar`: the product of the named uniform
    sources, or its constant) and whose outputs (`epi.store`,
    `epi.aux_store`, reductions) yield the element's value of the named
    result. `epi.convert` becomes PTX's cvt (f32 -> f16x2/bf16x2 with rn or
    rz); compute ops are cloned as they are, named activations stay for
    `--epi-lower-activations`. Uses of the results through `vector.extract`
    are replaced by the element values, so no vector survives. Where the
    fragment's sources come from (shared memory, global memory, registers)
    is the epilogue collective's business, not this pass's.

    ```mlir
    %d = epi.visit %acc : vector<2xf32> sources(%c : vector<2xf32>)
        names ["C"] outputs ["D"] d_type f16 -> vector<2xf32> {
    ^bb0(%a: f32):
      %c = epi.load_src : f32
      %s = arith.addf %a, %c : f32
      epi.store %s : f32
      epi.yield
    }
    // becomes, for element 0 (and likewise 1):
    %a0 = vector.extract %acc[0] : f32 from vector<2xf32>
    %c0 = vector.extract %c[0] : f32 from vector<2xf32>
    %s0 = arith.addf %a0, %c0 : f32
    ```
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect", "::mlir::vector::VectorDialect",
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect"
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

def ConvertMathApproxToNVVM : Pass<"convert-math-approx-to-nvvm"> {
  let summary = "Lower f32 math.tanh with fastmath<afn> to PTX's tanh.approx.f32";
  let description = [{
    `fastmath<afn>` allows an approximate function. Upstream's
    `--convert-gpu-to-nvvm` honours it for `math.exp` (`__nv_fast_expf`) and
    LLVM's NVPTX backend for `arith.divf` (`div.approx`, `rcp.approx`), but
    `math.tanh` becomes libdevice's `__nv_tanhf` either way. This pass,
    run before `--convert-gpu-to-nvvm`, turns an f32 `math.tanh` with `afn`
    into `tanh.approx.f32` (one MUFU instruction, relative error about
    2^-11; CUTLASS's `fast_tanh`). Other types and ops are left alone.

    ```mlir
    %t = math.tanh %x fastmath<afn> : f32
    // becomes
    %t = llvm.intr.tanh(%x) {fastmathFlags = #llvm.fastmath<afn>} : (f32) -> f32
    // which NVPTX selects as tanh.approx.f32
    ```
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // WSGEMM_CONVERSION_PASSES_TD
