// Clusters of 2 and 4 CTAs with TMA multicast: [2, 1, 1] (two CTAs along M share
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

// Clusters of 4 CTAs. [2, 2, 1]: the CTAs of a row (same M tile) share A,
// those of a column (same N tile) share B; each loads half of each shared
// tile and multicasts it to its row or column, and a consumed stage goes
// back to three CTAs. [4, 1, 1] / [1, 4, 1]: B / A split in four.

// 128x256 cooperative, cluster 2x2, LinCombPerRowBiasEltAct<ReLU>, f16.
wsgemm.gemm @cl_coop_22_lincomb_relu_f16 a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          cluster = [2, 2, 1], swizzle = 4> {
^bb0(%acc: f32):
  epi.fusion LinCombPerRowBiasEltAct %acc activation #epi.activation<relu>
      bias f16 : f32
  epi.yield
}

// Pingpong 128x128, cluster 2x2, N-major B, aux load and store.
wsgemm.gemm @cl_pp_22_nmajor_aux a(bf16) b(bf16, n_major) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = pingpong,
                          cluster = [2, 2, 1]> {
^bb0(%acc: f32):
  %res = epi.aux_load "residual" : bf16 -> f32
  %z = arith.addf %acc, %res : f32
  epi.aux_store %z, "pre" : f32 -> f16
  %d = epi.gelu %z : f32
  epi.store %d : f32
  epi.yield
}

// 256x128 cooperative, cluster 4x1 (B in four 32-row parts), plain bf16.
wsgemm.gemm @cl_coop_41_plain_bf16 a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [256, 128, 64], schedule = cooperative,
                          cluster = [4, 1, 1], swizzle = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// 256x128 cooperative, cluster 1x4, M-major A (four 64-column blocks, one
// per CTA), batched, f32 D, row and column reductions.
wsgemm.gemm @cl_coop_14_mmajor_red batched a(f16, m_major) b(f16) d(f32)
    config #wsgemm.config<tile = [256, 128, 64], schedule = cooperative,
                          cluster = [1, 4, 1]> {
^bb0(%acc: f32):
  epi.reduce_to_vec_m sum %acc, "rowsum" : f32
  epi.reduce_to_vec_n max %acc, "colmax" : f32
  epi.store %acc : f32
  epi.yield
}

// Split-K 2 in 2x2 clusters, cooperative 128x128, C, bias, ReLU.
wsgemm.gemm @cl_split2_22_lincomb_bf16 a(bf16) b(bf16) c(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          cluster = [2, 2, 1], split_k = 2> {
^bb0(%acc: f32):
  epi.fusion LinCombPerRowBiasEltAct %acc activation #epi.activation<relu>
      bias bf16 : f32
  epi.yield
}
