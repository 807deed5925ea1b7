// fp8 GEMMs (issue 11): every pair of 8-bit A and B types (K-major, as
// wgmma needs for 8-bit operands), D in e4m3, e5m2, f16, bf16 and f32, 8-bit
// C, aux and broadcast operands, every CUTLASS scaled preset (the per-row
// one with every activation), per-row / per-column scales, and the three
// schedules. integration_test/utils/gen_run_tests.py runs each on the fp8
// shapes (K and an 8-bit N a multiple of 16: TMA's 16-byte stride rule).

// The dtype pairs, with D of every type.
wsgemm.gemm @f8_e4m3_e4m3_bf16 a(f8E4M3FN) b(f8E4M3FN) d(bf16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @f8_e4m3_e5m2_e4m3 a(f8E4M3FN) b(f8E5M2) d(f8E4M3FN) {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %d = arith.mulf %alpha, %acc : f32
  epi.store %d : f32
  epi.yield
}

wsgemm.gemm @f8_e5m2_e4m3_f16_ws a(f8E5M2) b(f8E4M3FN) d(f16)
    config #wsgemm.config<tile = [128, 128, 128], schedule = warp_specialized> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @f8_e5m2_e5m2_e5m2_pp a(f8E5M2) b(f8E5M2) d(f8E5M2)
    config #wsgemm.config<tile = [64, 128, 128], schedule = pingpong> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %d = arith.mulf %alpha, %acc : f32
  epi.store %d : f32
  epi.yield
}

wsgemm.gemm @f8_e4m3_f32_256x128 a(f8E4M3FN) b(f8E4M3FN) d(f32)
    config #wsgemm.config<tile = [256, 128, 128], schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @f8_batched_e4m3_128x256 batched a(f8E4M3FN) b(f8E4M3FN) d(f8E4M3FN)
    config #wsgemm.config<tile = [128, 256, 128], schedule = cooperative,
                          swizzle = 2> {
^bb0(%acc: f32):
  %s = epi.scalar ptr ["scale_d"] : f32
  %d = arith.mulf %acc, %s : f32
  epi.store %d : f32
  epi.yield
}

// 8-bit C (D over it with ReuseSmemC), an 8-bit aux load and an 8-bit
// per-row vector.
wsgemm.gemm @f8_c8_reuse a(f8E4M3FN) b(f8E4M3FN) c(f8E5M2) d(f8E4M3FN)
    config #wsgemm.config<reuse_smem_c = true> {
^bb0(%acc: f32):
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %d = math.fma %beta, %c, %acc : f32
  epi.store %d : f32
  epi.yield
}

wsgemm.gemm @f8_aux8_vec8_ws a(f8E5M2) b(f8E4M3FN) d(bf16)
    config #wsgemm.config<tile = [128, 128, 128], schedule = warp_specialized> {
^bb0(%acc: f32):
  %r = epi.aux_load "residual" : f8E4M3FN -> f32
  %s = epi.load_vec_m "row_scale" : f8E5M2 -> f32
  %x = arith.mulf %acc, %s : f32
  %d = arith.addf %x, %r : f32
  epi.aux_store %x, "scaled" : f32 -> f8E5M2
  epi.store %d : f32
  epi.yield
}

// Per-token (row) and per-channel (column) scales: D = acc * sa[m] * sb[n].
wsgemm.gemm @f8_rowcol_scales a(f8E4M3FN) b(f8E4M3FN) d(bf16) {
^bb0(%acc: f32):
  %sa = epi.load_vec_m "scale_a" : f32 -> f32
  %sb = epi.load_vec_n "scale_b" : f32 -> f32
  %x = arith.mulf %acc, %sa : f32
  %d = arith.mulf %x, %sb : f32
  epi.store %d : f32
  epi.yield
}

// CUTLASS's scaled presets: ScaledLinCombPerRowBiasEltAct with every
// activation (fp8 D: scale_d applies), ...PerColBias... with a 16-bit D
// (scale_d unused, as in CUTLASS), and both AmaxAux forms with fp8 and
// 16-bit aux outputs.

wsgemm.gemm @f8_srow_identity a(f8E4M3FN) b(f8E4M3FN) c(bf16) d(f8E4M3FN) {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerRowBiasEltAct %acc activation #epi.activation<identity> bias bf16 : f32
  epi.yield
}

wsgemm.gemm @f8_srow_relu a(f8E4M3FN) b(f8E4M3FN) c(bf16) d(f8E4M3FN) {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerRowBiasEltAct %acc activation #epi.activation<relu> bias bf16 : f32
  epi.yield
}

wsgemm.gemm @f8_srow_clamp a(f8E4M3FN) b(f8E4M3FN) c(bf16) d(f8E4M3FN) {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerRowBiasEltAct %acc activation #epi.activation<clamp {lower = 0.0, upper = 6.0}> bias bf16 : f32
  epi.yield
}

wsgemm.gemm @f8_srow_leaky_relu a(f8E4M3FN) b(f8E4M3FN) c(bf16) d(f8E4M3FN) {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerRowBiasEltAct %acc activation #epi.activation<leaky_relu {leaky_alpha = 0.2}> bias bf16 : f32
  epi.yield
}

wsgemm.gemm @f8_srow_threshold_relu a(f8E4M3FN) b(f8E4M3FN) c(bf16) d(f8E4M3FN) {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerRowBiasEltAct %acc activation #epi.activation<threshold_relu {threshold = 0.5}> bias bf16 : f32
  epi.yield
}

wsgemm.gemm @f8_srow_gelu a(f8E4M3FN) b(f8E4M3FN) c(bf16) d(f8E4M3FN) {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerRowBiasEltAct %acc activation #epi.activation<gelu> bias bf16 : f32
  epi.yield
}

wsgemm.gemm @f8_srow_gelu_taylor a(f8E4M3FN) b(f8E4M3FN) c(bf16) d(f8E4M3FN) {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerRowBiasEltAct %acc activation #epi.activation<gelu_taylor> bias bf16 : f32
  epi.yield
}

wsgemm.gemm @f8_srow_silu a(f8E4M3FN) b(f8E4M3FN) c(bf16) d(f8E4M3FN) {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerRowBiasEltAct %acc activation #epi.activation<silu> bias bf16 : f32
  epi.yield
}

wsgemm.gemm @f8_srow_sigmoid a(f8E4M3FN) b(f8E4M3FN) c(bf16) d(f8E4M3FN) {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerRowBiasEltAct %acc activation #epi.activation<sigmoid> bias bf16 : f32
  epi.yield
}

wsgemm.gemm @f8_srow_tanh a(f8E4M3FN) b(f8E4M3FN) c(bf16) d(f8E4M3FN) {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerRowBiasEltAct %acc activation #epi.activation<tanh> bias bf16 : f32
  epi.yield
}

wsgemm.gemm @f8_srow_hardswish a(f8E4M3FN) b(f8E4M3FN) c(bf16) d(f8E4M3FN) {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerRowBiasEltAct %acc activation #epi.activation<hardswish> bias bf16 : f32
  epi.yield
}

wsgemm.gemm @f8_scol_gelu_bf16 a(f8E4M3FN) b(f8E5M2) c(bf16) d(bf16) {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerColBiasEltAct %acc activation #epi.activation<gelu> bias bf16 : f32
  epi.yield
}

wsgemm.gemm @f8_scol_relu_e5m2_pp a(f8E5M2) b(f8E4M3FN) c(f16) d(f8E5M2)
    config #wsgemm.config<tile = [128, 128, 128], schedule = pingpong> {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerColBiasEltAct %acc activation #epi.activation<relu> bias f16 : f32
  epi.yield
}

wsgemm.gemm @f8_srow_amax_aux8 a(f8E4M3FN) b(f8E4M3FN) c(bf16) d(f8E4M3FN) {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerRowBiasEltActAmaxAux %acc activation #epi.activation<relu> bias bf16 aux f8E5M2 : f32
  epi.yield
}

wsgemm.gemm @f8_scol_amax_aux8_ws a(f8E5M2) b(f8E5M2) c(bf16) d(f8E5M2)
    config #wsgemm.config<tile = [128, 128, 128], schedule = warp_specialized> {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerColBiasEltActAmaxAux %acc activation #epi.activation<silu> bias bf16 aux f8E4M3FN : f32
  epi.yield
}

wsgemm.gemm @f8_srow_amax_aux16 a(f8E4M3FN) b(f8E5M2) c(bf16) d(f8E4M3FN)
    config #wsgemm.config<tile = [128, 256, 128], schedule = cooperative> {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerRowBiasEltActAmaxAux %acc activation #epi.activation<gelu> bias bf16 aux bf16 : f32
  epi.yield
}

wsgemm.gemm @f8_scol_amax_d16_pp a(f8E4M3FN) b(f8E4M3FN) c(bf16) d(bf16)
    config #wsgemm.config<tile = [64, 128, 128], schedule = pingpong> {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerColBiasEltActAmaxAux %acc activation #epi.activation<identity> bias bf16 aux f8E4M3FN : f32
  epi.yield
}

// Promoted accumulation (promotion_interval): every k-tile (DeepGEMM's
// recipe) and every 4, with an fp8 D; long K in the runs.
wsgemm.gemm @f8_promoted_1 a(f8E4M3FN) b(f8E4M3FN) d(f8E4M3FN)
    config #wsgemm.config<promotion_interval = 1> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %d = arith.mulf %alpha, %acc : f32
  epi.store %d : f32
  epi.yield
}

wsgemm.gemm @f8_promoted_4_pp a(f8E5M2) b(f8E4M3FN) d(bf16)
    config #wsgemm.config<tile = [64, 128, 128], schedule = pingpong,
                          promotion_interval = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// f32 D, promoted every k-tile: beside f8_e4m3_f32_256x128 (fast
// accumulation, f32 D) at K = 4096 and 65536, the accuracy of the two
// modes with no output rounding in the way.
wsgemm.gemm @f8_promoted_1_f32 a(f8E4M3FN) b(f8E4M3FN) d(f32)
    config #wsgemm.config<tile = [128, 128, 128], schedule = cooperative,
                          promotion_interval = 1> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
