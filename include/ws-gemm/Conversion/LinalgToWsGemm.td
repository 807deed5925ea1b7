//===- LinalgToWsGemm.td - linalg front end pass -----------*- tablegen -*-===//
//
// The front end for ML compilers: linalg on tensors -> wsgemm.gemm. Kept in
// its own file (and its own registration function,
// registerWsGemmLinalgPasses) so that tools which do not take linalg input
// need not link it.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_CONVERSION_LINALGTOWSGEMM_TD
#define WSGEMM_CONVERSION_LINALGTOWSGEMM_TD

include "mlir/Pass/PassBase.td"

def WsGemmFromLinalg : Pass<"wsgemm-from-linalg", "::mlir::ModuleOp"> {
  let summary = "Fuse linalg matmuls and their element-wise consumers and reductions into wsgemm.gemm kernels";
  let description = [{
    For each contraction on tensors (`linalg.matmul`, `linalg.batch_matmul`,
    `linalg.contract` or a `linalg.generic` contraction; transposed operands
    through `indexing_maps` or a `linalg.transpose` producer) whose A and B
    are f16 or bf16, the pass gathers, in block order, the linalg ops that
    consume its result and that an epilogue can compute per output element:
    element-wise ops (named or `linalg.generic`) whose other operands are
    M x N matrices (`epi.aux_load`), vectors along m or n (`epi.load_vec_m`
    / `epi.load_vec_n`, also through `linalg.broadcast`), scalars
    (`epi.scalar param`), 0-d tensors (`epi.scalar ptr`) or constants, and
    row, column or full reductions (sum, max, min, absmax). The matmul's
    init becomes C (`epi.load_src`) unless it is a zero fill. The chain
    becomes one `wsgemm.gemm` (the bodies cloned into its epilogue, computed
    in f32) and the ops are replaced by a `func.call` to a private
    declaration `@<kernel>_launch` whose arguments carry `wsgemm.param`
    (the manifest parameter each one binds) and which names the kernel in
    `wsgemm.kernel`. The gemm is checked with `--wsgemm-plan`'s legality
    rules first; the longest legal prefix of the chain is fused. Every
    linalg op that reads the chain and is not fused, and every contraction
    left alone, gets a remark that says why.

    The kernel of a contraction in function `@f` is `@f_gemm<i>`, `<i>` the
    first number that no symbol of the module takes, compared without case
    (kernel names name files). A function name that is no valid kernel name
    (docs/limits.md, "Kernel names") is mapped first: bytes other than
    letters, digits and `_` become `_`, a name that does not start with a
    letter gets `k_` in front, and it is cut to fit the 240-character limit
    (`@"my fn/1"` gives `@my_fn_1_gemm0`, `@"2x"` gives `@k_2x_gemm0`). The
    launch in the function names its kernel, so the mapping stays visible.

    ```mlir
    %mm = linalg.matmul ins(%a, %b : tensor<128x64xf16>, tensor<64x256xf16>)
                        outs(%zero : tensor<128x256xf32>) -> tensor<128x256xf32>
    %y = linalg.generic {...} ins(%mm, %bias : tensor<128x256xf32>, tensor<256xf32>)
                              outs(%init : tensor<128x256xf16>) { addf, truncf }
    // becomes
    wsgemm.gemm @f_gemm0 a(f16) b(f16, n_major) d(f16) shape [128, 256, 64] {
    ^bb0(%acc: f32):
      %0 = epi.load_vec_n "vec_n0" : f32 -> f32
      %1 = arith.addf %acc, %0 : f32
      epi.store %1 : f32
      epi.yield
    }
    %y = call @f_gemm0_launch(%a, %b, %bias, %init) : (...) -> tensor<128x256xf16>
    ```
  }];
  let dependentDialects = [
    "::mlir::wsgemm::WsGemmDialect", "::mlir::epi::EpiDialect",
    "::mlir::func::FuncDialect", "::mlir::arith::ArithDialect",
    "::mlir::math::MathDialect"
  ];
}

#endif // WSGEMM_CONVERSION_LINALGTOWSGEMM_TD
