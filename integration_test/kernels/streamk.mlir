// Split-K and stream-K tile schedulers (docs/stream-k.md): a tile's K range
// split over CTAs, partial sums reduced in split order through the global
// workspace, the EVT run once per tile by the last split. Every EVT output
// kind: D, aux load and store, row/column/scalar reductions, amax.
// streamk.test runs them on ragged shapes, K < tile, long K, with stream-K
// forced on (--stream-k-tiles) and chosen by the runtime's heuristic.

// Split-K 3, plain f16, cooperative 128x256.
wsgemm.gemm @sk_split3_plain_f16 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          split_k = 3> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Split-K 4, warp_specialized 128x128 (made persistent), bf16, N-major B,
// per-row bias, C (ReuseSmemC), ReLU.
wsgemm.gemm @sk_split4_ws_lincomb_bf16 a(bf16) b(bf16, n_major) c(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized,
                          split_k = 4> {
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

// Split-K 2 with every reduction kind (row sum, column max, scalar amax)
// and an aux load and store beside D.
wsgemm.gemm @sk_split2_reductions_aux a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          split_k = 2> {
^bb0(%acc: f32):
  %res = epi.aux_load "residual" : f16 -> f32
  %z = arith.addf %acc, %res : f32
  epi.aux_store %z, "preact" : f32 -> bf16
  epi.reduce_to_vec_m sum %z, "rowsum" : f32
  epi.reduce_to_vec_n max %z, "colmax" : f32
  epi.reduce_to_scalar absmax %z, "amax" : f32
  %zero = arith.constant 0.0 : f32
  %r = arith.maximumf %z, %zero : f32
  epi.store %r : f32
  epi.yield
}

// Split-K in clusters (the cluster's CTAs take the same (group, split)
// units and share the multicast operand tiles): 1x2 with C, bias and ReLU
// (cuBLASLt's kernel for 1024x1024x16384 is 128x128 split-K 2 in 1x2
// clusters), and 2x1 with every reduction kind and an aux store.
wsgemm.gemm @sk_split2_cluster12_lincomb_f16 a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          cluster = [1, 2, 1], split_k = 2> {
^bb0(%acc: f32):
  epi.fusion LinCombPerRowBiasEltAct %acc activation #epi.activation<relu>
      bias f16 : f32
  epi.yield
}

wsgemm.gemm @sk_split3_cluster21_reductions a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          cluster = [2, 1, 1], split_k = 3> {
^bb0(%acc: f32):
  epi.aux_store %acc, "preact" : f32 -> f16
  epi.reduce_to_vec_m sum %acc, "rowsum" : f32
  epi.reduce_to_vec_n max %acc, "colmax" : f32
  epi.reduce_to_scalar absmax %acc, "amax" : f32
  epi.store %acc : f32
  epi.yield
}

// Stream-K, plain f16, cooperative 128x256.
wsgemm.gemm @sk_stream_plain_f16 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          scheduler = stream_k> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Stream-K, warp_specialized 128x128, f32 D, M-major A.
wsgemm.gemm @sk_stream_ws_mmajor_d32 a(f16, m_major) b(f16) d(f32)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized,
                          scheduler = stream_k> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Stream-K with CUTLASS's ScaledLinCombPerRowBiasEltActAmaxAux<ReLU>: C,
// bias, aux store and amax of D and of the aux output.
wsgemm.gemm @sk_stream_amax_aux a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          scheduler = stream_k> {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerRowBiasEltActAmaxAux %acc
      activation #epi.activation<relu> bias f16 aux f16 : f32
  epi.yield
}

// Stream-K with row/column/scalar reductions, batched.
wsgemm.gemm @sk_stream_reductions_batched batched a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          scheduler = stream_k> {
^bb0(%acc: f32):
  epi.reduce_to_vec_m max %acc, "rowmax" : f32
  epi.reduce_to_vec_n sum %acc, "colsum" : f32
  epi.reduce_to_scalar sum %acc, "total" : f32
  epi.store %acc : f32
  epi.yield
}
