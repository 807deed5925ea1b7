//===- EpiPasses.td - Epilogue dialect passes --------------*- tablegen -*-===//
//
// --epi-expand-presets, --epi-lower-activations and
// --epi-regroup-uniform-factors.
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

def EpiRegroupUniformFactors : Pass<"epi-regroup-uniform-factors"> {
  let summary = "Multiply an element by the product of its uniform factors";
  let description = [{
    Where two multiplications both carry `fastmath<reassoc>` (or `fast`),
    `(x * u1) * u2` with `u1` and `u2` uniform (`epi::isUniform`: scalars,
    constants and arithmetic on them) becomes `x * (u1 * u2)`: the uniform
    product is computed once and each element is multiplied once, not twice
    (fp8's `(alpha * scale_a * scale_b) * acc * scale_d`). Operands may come
    in either order; chains regroup one factor at a time. Without `reassoc`
    on both the EVT is left as written, since the result may differ in the
    last bit. The regrouped products keep the flags the two had in common.

    The epilogue collective regroups a reduction's uniform factor the same
    way (docs/epi.md, "Uniform factors"); the manifest's EVT, which the
    runtime's reference evaluates, is the one written.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

#endif // WSGEMM_DIALECT_EPI_EPIPASSES_TD
