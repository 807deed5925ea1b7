//===- WsGemmDialect.td - Warp-specialized GEMM dialect ----*- tablegen -*-===//

#ifndef WSGEMM_DIALECT_WSGEMM_WSGEMMDIALECT_TD
#define WSGEMM_DIALECT_WSGEMM_WSGEMMDIALECT_TD

include "mlir/IR/OpBase.td"

def WsGemm_Dialect : Dialect {
  let name = "wsgemm";
  let cppNamespace = "::mlir::wsgemm";
  let summary = "Warp-specialized Hopper GEMM kernels";
  let description = [{
    Two levels. Declarative: `wsgemm.gemm` defines a GEMM kernel (operand
    types and layouts, an epilogue region in the `epi` dialect, and a
    `#wsgemm.config` of CUTLASS builder knobs). Explicit (after
    `--wsgemm-specialize`): warp roles as regions of `wsgemm.warp_specialize`,
    and mbarrier pipelines as SSA values with producer/consumer ops.
  }];
  // The explicit level addresses shared memory with !llvm.ptr<3> and names
  // TMA descriptors with !nvgpu.tensormap.descriptor.
  let dependentDialects = ["::mlir::epi::EpiDialect",
                           "::mlir::LLVM::LLVMDialect",
                           "::mlir::nvgpu::NVGPUDialect"];
  let useDefaultAttributePrinterParser = 1;
  let useDefaultTypePrinterParser = 1;
}

class WsGemm_Op<string mnemonic, list<Trait> traits = []>
    : Op<WsGemm_Dialect, mnemonic, traits>;

#endif // WSGEMM_DIALECT_WSGEMM_WSGEMMDIALECT_TD
