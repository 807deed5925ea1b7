// CUTLASS SM90 fusion presets through `epi.fusion`, expanded by
// --epi-expand-presets into the same EVTs that kernels/ writes by hand.
// Parameters take CUTLASS's names (alpha, beta, bias, aux, scale_a, ...).
// presets.test runs them.

wsgemm.gemm @preset_scaled_acc a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.fusion ScaledAcc %acc : f32
  epi.yield
}

wsgemm.gemm @preset_lincomb a(bf16) b(bf16) c(bf16) d(bf16) {
^bb0(%acc: f32):
  epi.fusion LinearCombination %acc : f32
  epi.yield
}

wsgemm.gemm @preset_lincomb_gelu a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  epi.fusion LinCombEltAct %acc activation #epi.activation<gelu> : f32
  epi.yield
}

// LinCombPerRowBiasEltAct<ReLU>: examples/gemm_relu.mlir as a preset.
wsgemm.gemm @preset_rowbias_relu a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  epi.fusion LinCombPerRowBiasEltAct %acc activation #epi.activation<relu>
      bias f16 : f32
  epi.yield
}

wsgemm.gemm @preset_rowbias_relu_bf16 a(bf16) b(bf16) c(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative> {
^bb0(%acc: f32):
  epi.fusion LinCombPerRowBiasEltAct %acc activation #epi.activation<relu>
      bias bf16 : f32
  epi.yield
}

// examples/gemm_gelu_colbias.mlir as a preset (with C).
wsgemm.gemm @preset_colbias_gelu a(bf16) b(bf16, n_major) c(bf16) d(bf16) {
^bb0(%acc: f32):
  epi.fusion LinCombPerColBiasEltAct %acc activation #epi.activation<gelu>
      bias bf16 : f32
  epi.yield
}

wsgemm.gemm @preset_rowbias_clamp_aux a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  epi.fusion LinCombPerRowBiasEltActAux %acc
      activation #epi.activation<clamp {lower = 0.0, upper = 6.0}>
      bias f16 aux f16 : f32
  epi.yield
}

wsgemm.gemm @preset_perrow_lincomb_silu a(f16) b(f16) c(f16) d(f32) {
^bb0(%acc: f32):
  epi.fusion PerRowLinCombPerRowBiasEltAct %acc
      activation #epi.activation<silu> bias f32 : f32
  epi.yield
}

wsgemm.gemm @preset_scaled_amax_aux a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerRowBiasEltActAmaxAux %acc
      activation #epi.activation<relu> bias f16 aux f16 : f32
  epi.yield
}
