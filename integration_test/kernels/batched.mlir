// Batched GEMMs: every operand carries an outermost batch dimension L (one
// whole matrix per batch); vectors and reductions are per batch too.
// batched.test runs them with L = 3 (and L = 1).

// Plain batched GEMM, f16, cooperative.
wsgemm.gemm @bt_plain_f16 batched a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Batched lincomb with per-row and per-column bias, bf16, N-major B,
// warp_specialized.
wsgemm.gemm @bt_bias_bf16_ws batched a(bf16) b(bf16, n_major) c(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %rb = epi.load_vec_m "rowbias" : bf16 -> f32
  %cb = epi.load_vec_n "colbias" : bf16 -> f32
  %x = arith.mulf %alpha, %acc : f32
  %y = arith.mulf %beta, %c : f32
  %z = arith.addf %x, %y : f32
  %w = arith.addf %z, %rb : f32
  %r = arith.addf %w, %cb : f32
  epi.store %r : f32
  epi.yield
}

// Batched aux load, aux store and reductions of all three shapes, f32 D,
// non-persistent.
wsgemm.gemm @bt_aux_red batched a(f16) b(f16) d(f32)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          persistent = false> {
^bb0(%acc: f32):
  %res = epi.aux_load "residual" : f16 -> f32
  %z = arith.addf %acc, %res : f32
  epi.aux_store %z, "pre" : f32 -> bf16
  epi.reduce_to_vec_m max %z, "rowmax" : f32
  epi.reduce_to_vec_n sum %z, "colsum" : f32
  epi.reduce_to_scalar absmax %z, "amax" : f32
  epi.store %z : f32
  epi.yield
}

// Batched, 256x128 cooperative, f32 C with ReuseSmemC.
wsgemm.gemm @bt_c32_256x128 batched a(bf16) b(bf16) c(f32) d(f32)
    config #wsgemm.config<tile = [256, 128, 64], schedule = cooperative> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %r = arith.addf %acc, %c : f32
  epi.store %r : f32
  epi.yield
}
