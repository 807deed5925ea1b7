//===- EpiPasses.td - Epilogue dialect passes --------------*- tablegen -*-===//
//
// --epi-expand-presets and --epi-lower-activations.
//
//===----------------------------------------------------------------------===//

#ifndef WSGEMM_DIALECT_EPI_EPIPASSES_TD
#define WSGEMM_DIALECT_EPI_EPIPASSES_TD

include "mlir/Pass/PassBase.td"

def EpiExpandPresets : Pass<"epi-expand-presets"> {
  let summary = "Rewrite epi.fusion presets into explicit EVT regions";
  let description = [{
    Each `epi.fusion` names a CUTLASS SM90 FusionOperation; this pass replaces
    it with the leaves, arithmetic, activation and outputs that compute exactly
    what CUTLASS computes for it (operations.hpp and
    sm90_callbacks_tma_warpspecialized.hpp): multiply_add nodes become
    `math.fma`, C is read with `skip_if_zero "beta"` when beta is a kernel
    parameter, fp8 scale_d/amax_d and scale_aux/amax_aux appear only for fp8
    D/aux as in CUTLASS. The rest of the epilogue is left as is. See
    docs/epi.md for the table of expansions.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def EpiLowerActivations : Pass<"epi-lower-activations"> {
  let summary = "Lower named epi activations to arith/math";
  let description = [{
    Rewrites relu, clamp, leaky_relu, threshold_relu, gelu, gelu_taylor, silu,
    sigmoid, tanh, hardswish and identity into scalar `arith` and `math` ops in
    the operand's type, with CUTLASS's formulas, constants, per-type forms and
    NaN behaviour (include/cutlass/epilogue/thread/activation.h): relu and
    clamp propagate NaN (`arith.maximumf`/`minimumf`), hardswish does not.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

#endif // WSGEMM_DIALECT_EPI_EPIPASSES_TD
