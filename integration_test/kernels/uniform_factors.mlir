// Uniform factors with fastmath<reassoc> (--epi-regroup-uniform-factors
// and the epilogue's reductions, docs/epi.md "Uniform factors"): each
// element is multiplied once by the product of its uniform factors; a sum's
// or absmax's factor is applied once per flushed partial; e4m3 x e4m3
// reductions of the accumulator skip the per-element bounds select (TMA's
// zero fill). The runtime's reference evaluates the EVT as written.

// The benchmarked fp8 scaled_amax, cooperative 128x256 (ragged tiles need
// no select: the zero fill gives |0| to the amax).
wsgemm.gemm @uf_f8_amax_coop a(f8E4M3FN) b(f8E4M3FN) d(f8E4M3FN)
    config #wsgemm.config<tile = [128, 256, 128], schedule = cooperative> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %sab = epi.scalar ptr ["scale_a", "scale_b"] : f32
  %sd = epi.scalar ptr ["scale_d"] : f32
  %s = arith.mulf %alpha, %sab fastmath<reassoc> : f32
  %z = arith.mulf %s, %acc fastmath<reassoc> : f32
  epi.reduce_to_scalar absmax %z, "amax_d" : f32
  %d = arith.mulf %z, %sd fastmath<reassoc> : f32
  epi.store %d : f32
  epi.yield
}

// Batched, 128x128: per-row absmax and per-column sum of the scaled
// accumulator (unmasked, factor at the flush), a scalar absmax, bf16 D
// scaled twice. Rows past M of one batch are zero-filled, not the next
// batch's.
wsgemm.gemm @uf_f8_vec_batched batched a(f8E4M3FN) b(f8E4M3FN) d(bf16)
    config #wsgemm.config<tile = [128, 128, 128], schedule = cooperative> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %sa = epi.scalar ptr ["scale_a"] : f32
  %half = arith.constant 0.5 : f32
  %s = arith.mulf %alpha, %sa fastmath<reassoc> : f32
  %z = arith.mulf %acc, %s fastmath<reassoc> : f32
  epi.reduce_to_vec_m absmax %z, "row_amax" : f32
  epi.reduce_to_vec_n sum %z, "col_sum" : f32
  epi.reduce_to_scalar absmax %z, "amax" : f32
  %d = arith.mulf %half, %z fastmath<reassoc> : f32
  epi.store %d : f32
  epi.yield
}

// f16 inputs (an infinity is possible, so elements keep their bounds
// select), warp_specialized: a row sum and an amax with factors at the
// flush, D multiplied once by alpha * beta.
wsgemm.gemm @uf_f16_sums_ws a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64],
                          schedule = warp_specialized> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %z = arith.mulf %alpha, %acc fastmath<reassoc> : f32
  epi.reduce_to_vec_m sum %z, "row_sum" : f32
  epi.reduce_to_scalar absmax %z, "amax" : f32
  %d = arith.mulf %z, %beta fastmath<reassoc> : f32
  epi.store %d : f32
  epi.yield
}
