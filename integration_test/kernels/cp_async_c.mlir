// C and aux loads copied by the epilogue-load warp (issue 28, Hopper):
// `load_c = cp_async` with the alignment C and the aux loads have
// (`align_c`: 2, 4, 8 or 16 bytes), for rows TMA cannot describe (an odd
// N, a sliced base). The copies land in the layout TMA would write, so the
// rest of the epilogue is unchanged. gen_run_tests.py runs them on the
// standard shapes plus odd leading dimensions (--pad-c) and sliced bases
// (--offset-c), which apply to C and every aux load.

// alpha * acc + beta * C, C copied 2 bytes at a time (any N), D stored
// directly (odd rows too); beta = 0 skips C.
wsgemm.gemm @cpc_coop_c2_lincomb a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          load_c = cp_async, align_c = 2, store = direct> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src skip_if_zero "beta" : f32
  %a = arith.mulf %alpha, %acc : f32
  %bc = arith.mulf %beta, %c : f32
  %r = arith.addf %a, %bc : f32
  epi.store %r : f32
  epi.yield
}

// Pingpong 64x128, bf16: C and an f16 residual (aux load), 4 bytes at a
// time; row bias, ReLU; D by TMA.
wsgemm.gemm @cpc_pp_c4_residual a(bf16) b(bf16) c(bf16) d(bf16)
    config #wsgemm.config<tile = [64, 128, 64], schedule = pingpong,
                          load_c = cp_async, align_c = 4> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %res = epi.aux_load "residual" : f16 -> f32
  %bias = epi.load_vec_m "bias" : bf16 -> f32
  %z = arith.addf %acc, %c : f32
  %z2 = arith.addf %z, %res : f32
  %z3 = arith.addf %z2, %bias : f32
  %zero = arith.constant 0.0 : f32
  %r = arith.maximumf %z3, %zero : f32
  epi.store %r : f32
  epi.yield
}

// warp_specialized 128x128: an f32 C copied 8 bytes at a time (two
// elements), f32 D and an f32 aux store beside it.
wsgemm.gemm @cpc_ws_c8_f32 a(f16) b(f16) c(f32) d(f32)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized,
                          load_c = cp_async, align_c = 8> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %z = arith.addf %acc, %c : f32
  epi.aux_store %acc, "pre" : f32 -> f32
  epi.store %z : f32
  epi.yield
}

// Split-K (the last unit reads C), batched, 16-byte copies of C.
wsgemm.gemm @cpc_split2_c16_batched batched a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          split_k = 2, load_c = cp_async, align_c = 16> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %r = arith.addf %acc, %c : f32
  epi.store %r : f32
  epi.yield
}

// Stream-K with a 2-byte C and GELU, direct stores.
wsgemm.gemm @cpc_streamk_c2_gelu a(bf16) b(bf16) c(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          scheduler = stream_k, load_c = cp_async,
                          align_c = 2, store = direct> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %z = arith.addf %acc, %c : f32
  %g = epi.gelu %z : f32
  epi.store %g : f32
  epi.yield
}

// A 2x1 cluster (A and B multicast by TMA) with C copied per CTA.
wsgemm.gemm @cpc_cl21_c2 a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], cluster = [2, 1, 1],
                          schedule = cooperative, load_c = cp_async,
                          align_c = 2, store = direct> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %r = arith.addf %acc, %c : f32
  epi.store %r : f32
  epi.yield
}

// Benchmarked (docs/perf-notes.md, "C and aux loads by cp.async on
// sm_90a"): cooperative 128x256 f16, D = acc + C stored directly, C
// copied 2 or 16 bytes at a time or loaded by TMA.
wsgemm.gemm @bench_cpc_c2 a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          load_c = cp_async, align_c = 2, store = direct> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %r = arith.addf %acc, %c : f32
  epi.store %r : f32
  epi.yield
}

wsgemm.gemm @bench_cpc_c16 a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          load_c = cp_async, align_c = 16, store = direct> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %r = arith.addf %acc, %c : f32
  epi.store %r : f32
  epi.yield
}

wsgemm.gemm @bench_cpc_tma_ref a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          store = direct> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %r = arith.addf %acc, %c : f32
  epi.store %r : f32
  epi.yield
}
