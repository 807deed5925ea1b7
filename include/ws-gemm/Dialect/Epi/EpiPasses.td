//===- EpiPasses.td - Epilogue dialect passes --------------*- tablegen -*-===//

#ifndef WSGEMM_DIALECT_EPI_EPIPASSES_TD
#define WSGEMM_DIALECT_EPI_EPIPASSES_TD

include "mlir/Pass/PassBase.td"

def EpiExpandPresets : Pass<"epi-expand-presets"> {
  let summary = "Rewrite epi.fusion presets into explicit EVT regions";
  let description = [{
    Each `epi.fusion` names a CUTLASS SM90 FusionOperation; this pass replaces
    it with the leaves, arithmetic, activation and outputs that compute exactly
    what CUTLASS computes for it (operations.hpp and
    sm90_callbacks_tma_warpspecialized.hpp).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

def EpiLowerActivations : Pass<"epi-lower-activations"> {
  let summary = "Lower named epi activations to arith/math";
  let description = [{
    Rewrites relu, clamp, leaky_relu, threshold_relu, gelu, gelu_taylor, silu,
    sigmoid, tanh, hardswish and identity into scalar `arith` and `math` ops in
    the operand's type.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::math::MathDialect"];
}

#endif // WSGEMM_DIALECT_EPI_EPIPASSES_TD
