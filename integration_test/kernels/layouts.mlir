// Operand layouts: an M-major A (A stored K x M, M contiguous: wgmma reads
// it transposed) with K- and N-major B, across schedules. With
// plain.mlir's K-major A kernels, all four A/B major combinations run.

// M-major A, K-major B, cooperative 128x256, f16.
wsgemm.gemm @lay_mk_coop_f16 a(f16, m_major) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// M-major A, N-major B, pingpong 128x128, bf16, with C.
wsgemm.gemm @lay_mn_pp_bf16 a(bf16, m_major) b(bf16, n_major) c(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = pingpong> {
^bb0(%acc: f32):
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %y = arith.mulf %beta, %c : f32
  %d = arith.addf %acc, %y : f32
  epi.store %d : f32
  epi.yield
}

// M-major A, warp_specialized 64x128, f32 D, batched.
wsgemm.gemm @lay_mk_ws_batched batched a(f16, m_major) b(f16) d(f32)
    config #wsgemm.config<tile = [64, 128, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// M-major A, N-major B, cooperative 256x128 (two m64 blocks per
// warpgroup), per-row bias and ReLU.
wsgemm.gemm @lay_mn_coop_256x128 a(f16, m_major) b(f16, n_major) d(f16)
    config #wsgemm.config<tile = [256, 128, 64], schedule = cooperative> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  %d = epi.relu %z : f32
  epi.store %d : f32
  epi.yield
}
