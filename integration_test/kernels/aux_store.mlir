// Auxiliary outputs: M x N matrices written next to D (pre-activation
// values, as training keeps for the backward pass), in f16, bf16 and f32.
// ws-gemm-run checks each element by element. aux_store.test runs them.

// Pre-activation stored as f16, ReLU into D.
wsgemm.gemm @as_f16 a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.aux_store %z, "preact" : f32 -> f16
  %zero = arith.constant 0.0 : f32
  %r = arith.maximumf %z, %zero : f32
  epi.store %r : f32
  epi.yield
}

// Two aux outputs (bf16 and f32), warp_specialized, N-major B.
wsgemm.gemm @as_bf16_f32_ws a(bf16) b(bf16, n_major) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %z = arith.mulf %alpha, %acc : f32
  epi.aux_store %z, "scaled" : f32 -> bf16
  %sq = arith.mulf %z, %z : f32
  epi.aux_store %sq, "squared" : f32 -> f32
  %r = arith.negf %z : f32
  epi.store %r : f32
  epi.yield
}

// Aux store with C read and ReuseSmemC, 128x64 cooperative, f32 D.
wsgemm.gemm @as_c_coop_128x64 a(f16) b(f16) c(f32) d(f32)
    config #wsgemm.config<tile = [128, 64, 64], schedule = cooperative> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %z = arith.addf %acc, %c : f32
  epi.aux_store %acc, "acc_copy" : f32 -> f16
  epi.store %z : f32
  epi.yield
}
