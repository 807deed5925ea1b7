//===- Passes.td - ws-gemm conversion passes ---------------*- tablegen -*-===//

#ifndef WSGEMM_CONVERSION_PASSES_TD
#define WSGEMM_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertWsGemmToNVVM : Pass<"convert-wsgemm-to-nvvm", "::mlir::ModuleOp"> {
  let summary = "Lower planned wsgemm.gemm kernels to warp-specialized NVVM kernels";
  let description = [{
    Each planned `wsgemm.gemm` becomes an `llvm.func` kernel (NVVM ops: TMA,
    mbarrier, wgmma, stmatrix, bulk async-groups) inside a `gpu.module` that
    carries an `#nvvm.target`. The kernel's manifest (docs/manifest.md) is
    attached to it as the string attribute `wsgemm.manifest`, which
    ws-gemm-compile writes next to the cubin. Named activations are lowered
    to arith/math after the manifest has recorded them.
  }];
  let options = [
    Option<"chip", "chip", "std::string", "\"sm_90a\"", "Target SM architecture">,
    Option<"features", "features", "std::string", "\"+ptx80\"", "PTX features">,
    Option<"optLevel", "opt-level", "unsigned", "3", "NVPTX optimization level">,
  ];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect", "::mlir::NVVM::NVVMDialect",
    "::mlir::gpu::GPUDialect", "::mlir::scf::SCFDialect",
    "::mlir::arith::ArithDialect", "::mlir::math::MathDialect"
  ];
}

#endif // WSGEMM_CONVERSION_PASSES_TD
