// The pingpong schedule: two consumer warpgroups take alternate tiles of
// the CTA; their mainloops run one at a time in tile order and so do their
// epilogues, so one warpgroup's epilogue runs beside the other's wgmma.
// Every epilogue kind the other schedules cover, f16/bf16, K- and N-major
// B, batched; pingpong.test (generated) runs them on the standard shapes.

// 64x128 (one m64 wgmma per k-step), plain f16.
wsgemm.gemm @pp_plain_f16_64x128 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [64, 128, 64], schedule = pingpong> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// 128x128 bf16, N-major B, f32 D.
wsgemm.gemm @pp_plain_bf16_nmajor_d32 a(bf16) b(bf16, n_major) d(f32)
    config #wsgemm.config<tile = [128, 128, 64], schedule = pingpong> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// 64x256, f16, swizzle 2 along M.
wsgemm.gemm @pp_plain_f16_64x256_swz2 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [64, 256, 64], schedule = pingpong,
                          swizzle = 2, raster = along_m> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// LinCombPerRowBiasEltAct<ReLU>: C with ReuseSmemC (the default), a
// per-row bias, alpha and beta.
wsgemm.gemm @pp_lincomb_relu_f16 a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = pingpong> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %scaled = arith.mulf %alpha, %acc : f32
  %beta_c = arith.mulf %beta, %c : f32
  %lincomb = arith.addf %scaled, %beta_c : f32
  %z = arith.addf %lincomb, %bias : f32
  %d = epi.relu %z : f32
  epi.store %d : f32
  epi.yield
}

// bf16 C without ReuseSmemC, delayed TMA stores off, per-column bias,
// GELU, N-major B.
wsgemm.gemm @pp_lincomb_colbias_gelu_bf16 a(bf16) b(bf16, n_major) c(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = pingpong,
                          reuse_smem_c = false> {
^bb0(%acc: f32):
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %bias = epi.load_vec_n "bias" : bf16 -> f32
  %beta_c = arith.mulf %beta, %c : f32
  %sum = arith.addf %acc, %beta_c : f32
  %z = arith.addf %sum, %bias : f32
  %d = epi.gelu %z : f32
  epi.store %d : f32
  epi.yield
}

// No C: DelayTmaStore (the default), 4 store stages, epilogue tile 64x16.
wsgemm.gemm @pp_delay_epi64x16 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [64, 128, 64], schedule = pingpong,
                          epi_tile = [64, 16], stages_d = 4> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %d = arith.mulf %alpha, %acc : f32
  epi.store %d : f32
  epi.yield
}

// Aux load (residual) and aux store (pre-activation), C gated by beta.
wsgemm.gemm @pp_aux_gated a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = pingpong> {
^bb0(%acc: f32):
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src skip_if_zero "beta" : f32
  %res = epi.aux_load "residual" : bf16 -> f32
  %beta_c = arith.mulf %beta, %c : f32
  %sum = arith.addf %acc, %beta_c : f32
  %z = arith.addf %sum, %res : f32
  epi.aux_store %z, "pre" : f32 -> f16
  %d = epi.silu %z : f32
  epi.store %d : f32
  epi.yield
}

// Row, column and scalar reductions beside D.
wsgemm.gemm @pp_reductions a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [64, 128, 64], schedule = pingpong> {
^bb0(%acc: f32):
  epi.reduce_to_vec_m sum %acc, "rowsum" : f32
  epi.reduce_to_vec_n max %acc, "colmax" : f32
  epi.reduce_to_scalar absmax %acc, "amax" : f32
  epi.store %acc : f32
  epi.yield
}

// Batched, with C (f32) and a per-row bias.
wsgemm.gemm @pp_batched_c32 batched a(f16) b(f16) c(f32) d(f32)
    config #wsgemm.config<tile = [128, 128, 64], schedule = pingpong> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %bias = epi.load_vec_m "bias" : f32 -> f32
  %sum = arith.addf %acc, %c : f32
  %d = arith.addf %sum, %bias : f32
  epi.store %d : f32
  epi.yield
}
