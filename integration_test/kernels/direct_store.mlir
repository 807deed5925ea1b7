// Outputs stored without TMA (`store = direct`, issue 12): every epilogue
// thread copies its share of each staged subtile with bounds-checked
// st.global, so D and aux stores may have rows of any length (odd N:
// 100514-byte rows of an f16 LM head with N = 50257). Every schedule, a
// cluster, split-K and stream-K, batched, f16/bf16/f32/e4m3 outputs, aux
// stores and C. gen_run_tests.py runs them on the standard shapes plus odd
// N (C and aux loads are read with TMA: those kernels keep N aligned).

// The LM head of lm-head.test: f16, bias along N, cooperative 128x256.
wsgemm.gemm @ds_lm_head_f16 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          store = direct> {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.store %z : f32
  epi.yield
}

// Two aux stores (bf16 and f32) beside a bf16 D, warp_specialized.
wsgemm.gemm @ds_aux_bf16_f32_ws a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized,
                          store = direct> {
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

// Pingpong 64x128, f32 D with a per-row bias and ReLU.
wsgemm.gemm @ds_pp_d32 a(f16) b(f16) d(f32)
    config #wsgemm.config<tile = [64, 128, 64], schedule = pingpong,
                          store = direct> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  %zero = arith.constant 0.0 : f32
  %r = arith.maximumf %z, %zero : f32
  epi.store %r : f32
  epi.yield
}

// C read with TMA (its rows aligned), D stored directly; cooperative
// 128x128, the planner's defaults otherwise (no ReuseSmemC).
wsgemm.gemm @ds_lincomb_c_f16 a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          store = direct> {
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

// A cluster of 2 CTAs along M (B multicast), plain f16.
wsgemm.gemm @ds_cl21_f16 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          cluster = [2, 1, 1], store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Batched, bf16, per-column bias.
wsgemm.gemm @ds_batched_bf16 batched a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<store = direct> {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : bf16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.store %z : f32
  epi.yield
}

// Stream-K: the EVT runs once per tile after the fixup; an aux store and
// an amax beside D.
wsgemm.gemm @ds_stream_amax_aux a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          scheduler = stream_k, store = direct> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.aux_store %z, "preact" : f32 -> f16
  %zero = arith.constant 0.0 : f32
  %r = arith.maximumf %z, %zero : f32
  epi.reduce_to_scalar absmax %r, "amax" : f32
  epi.store %r : f32
  epi.yield
}

// Split-K 2, warp_specialized, f16.
wsgemm.gemm @ds_split2_f16 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized,
                          split_k = 2, store = direct> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// fp8: e4m3 A and B, e4m3 D scaled by a device scalar (one byte per
// element: any N).
wsgemm.gemm @ds_f8_e4m3 a(f8E4M3FN) b(f8E4M3FN) d(f8E4M3FN)
    config #wsgemm.config<store = direct> {
^bb0(%acc: f32):
  %scale = epi.scalar ptr ["scale_d"] : f32
  %d = arith.mulf %scale, %acc : f32
  epi.store %d : f32
  epi.yield
}
