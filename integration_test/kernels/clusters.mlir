// Clusters of 2 CTAs with TMA multicast: [2, 1, 1] (two CTAs along M share
// each B tile: each loads half of it and multicasts it to both) and
// [1, 2, 1] (two CTAs along N share A tiles). Every schedule, K- and
// MN-major operands, batched, C, aux, vectors and reductions.

// 128x256 cooperative, cluster 2x1, plain f16, swizzle 4.
wsgemm.gemm @cl_coop_21_plain_f16 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          cluster = [2, 1, 1], swizzle = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// 128x256 cooperative, cluster 1x2, LinCombPerRowBiasEltAct<ReLU>, bf16.
wsgemm.gemm @cl_coop_12_lincomb_relu_bf16 a(bf16) b(bf16) c(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          cluster = [1, 2, 1]> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %bias = epi.load_vec_m "bias" : bf16 -> f32
  %scaled = arith.mulf %alpha, %acc : f32
  %beta_c = arith.mulf %beta, %c : f32
  %lincomb = arith.addf %scaled, %beta_c : f32
  %z = arith.addf %lincomb, %bias : f32
  %d = epi.relu %z : f32
  epi.store %d : f32
  epi.yield
}

// Pingpong 128x128, cluster 2x1, N-major B (its 64-column blocks split
// between the CTAs), aux load and store.
wsgemm.gemm @cl_pp_21_nmajor_aux a(f16) b(f16, n_major) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = pingpong,
                          cluster = [2, 1, 1]> {
^bb0(%acc: f32):
  %res = epi.aux_load "residual" : f16 -> f32
  %z = arith.addf %acc, %res : f32
  epi.aux_store %z, "pre" : f32 -> bf16
  %d = epi.silu %z : f32
  epi.store %d : f32
  epi.yield
}

// warp_specialized (persistent) 128x128, cluster 1x2, M-major A (split in
// 64-column blocks), batched, f32 D, row and column reductions.
wsgemm.gemm @cl_ws_12_mmajor_red batched a(f16, m_major) b(f16) d(f32)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized,
                          persistent = true, cluster = [1, 2, 1]> {
^bb0(%acc: f32):
  epi.reduce_to_vec_m sum %acc, "rowsum" : f32
  epi.reduce_to_vec_n max %acc, "colmax" : f32
  epi.store %acc : f32
  epi.yield
}
