// A column-major D (`d(T, m_major)`: D stored N x M, M contiguous), written
// by the direct stores: every schedule, split-K with a reducing store,
// stream-K with an amax, batched, C and an aux store beside it (both
// row-major), a decode-shaped tile (N = 16), f16/bf16/f32 D. With a
// quantized weight as A (issue 29), D^T is the token-major output Y.

// Cooperative 128x128, bf16: row bias, SiLU, the pre-activation as a
// row-major f32 aux store.
wsgemm.gemm @dcm_coop_bias_silu_aux_bf16 a(bf16) b(bf16) d(bf16, m_major)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : bf16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.aux_store %z, "pre" : f32 -> f32
  %s = epi.silu %z : f32
  epi.store %s : f32
  epi.yield
}

// warp_specialized, f16 in, f32 D = alpha * acc + beta * C (C row-major,
// read with TMA).
wsgemm.gemm @dcm_ws_lincomb_c_f32 a(f16) b(f16) c(f16) d(f32, m_major)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %x = arith.mulf %alpha, %acc : f32
  %y = arith.mulf %beta, %c : f32
  %z = arith.addf %x, %y : f32
  epi.store %z : f32
  epi.yield
}

// Pingpong 64x128, f16, column bias and ReLU.
wsgemm.gemm @dcm_pp_f16 a(f16) b(f16, n_major) d(f16, m_major)
    config #wsgemm.config<tile = [64, 128, 64], schedule = pingpong> {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  %r = epi.relu %z : f32
  epi.store %r : f32
  epi.yield
}

// Stream-K 128x256, bf16, with the tile's absmax.
wsgemm.gemm @dcm_stream_amax_bf16 a(bf16) b(bf16) d(bf16, m_major)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          scheduler = stream_k> {
^bb0(%acc: f32):
  epi.reduce_to_scalar absmax %acc, "amax" : f32
  epi.store %acc : f32
  epi.yield
}

// Batched f16.
wsgemm.gemm @dcm_batched_f16 batched a(f16) b(f16) d(f16, m_major) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Split-K 2 reducing into an f32 D (red.global.add at column-major
// addresses).
wsgemm.gemm @dcm_split2_reduce_f32 a(f16) b(f16) d(f32, m_major)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized,
                          split_k = 2> {
^bb0(%acc: f32):
  epi.store %acc reduce add : f32
  epi.yield
}

// Decode-shaped: tile N = 16 (a few tokens), bf16, row bias: D^T is the
// tokens' rows.
wsgemm.gemm @dcm_decode_bias_bf16 a(bf16) b(bf16) d(bf16, m_major)
    config #wsgemm.config<tile = [128, 16, 64], schedule = cooperative> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : bf16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.store %z : f32
  epi.yield
}

// Timed against each other (docs/perf-notes.md): the same 128x256 bf16
// kernel storing D column-major, row-major by the direct stores, and
// row-major by TMA.
wsgemm.gemm @bench_dcm_col_bf16 a(bf16) b(bf16) d(bf16, m_major)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
wsgemm.gemm @bench_dcm_row_bf16 a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
wsgemm.gemm @bench_dcm_tma_bf16 a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          store = tma> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
