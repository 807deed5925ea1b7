// cp.async producers for operands TMA cannot describe (issue 28, Hopper):
// `load_a`/`load_b = cp_async` with the alignment the operand has
// (`align_a`/`align_b`: 2, 4, 8 or 16 bytes). The producer warps copy the
// operand into the same 128B-swizzled stages TMA fills; the other operand
// may stay TMA. gen_run_tests.py runs them on the standard shapes (777 is
// an odd M: an M-major A with rows of 1554 bytes) plus odd leading
// dimensions (--pad-a, --pad-b) and sliced bases (--offset-a, --offset-b).

// M-major A with any M (2-byte copies), B by TMA; bias, SiLU and beta * C.
wsgemm.gemm @cpa_coop_am_a2_evt a(f16, m_major) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          load_a = cp_async, align_a = 2> {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  %s = epi.silu %z : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %bc = arith.mulf %beta, %c : f32
  %r = arith.addf %s, %bc : f32
  epi.store %r : f32
  epi.yield
}

// K-major A copied 4 bytes at a time, pingpong 64x128; row bias, ReLU.
wsgemm.gemm @cpa_pp_ak_a4_relu a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [64, 128, 64], schedule = pingpong,
                          load_a = cp_async, align_a = 4> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  %zero = arith.constant 0.0 : f32
  %r = arith.maximumf %z, %zero : f32
  epi.store %r : f32
  epi.yield
}

// N-major B with any N (2-byte copies), warp_specialized, outputs stored
// directly (odd N rows of D too).
wsgemm.gemm @cpa_ws_bn_a2_direct a(bf16) b(bf16, n_major) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized,
                          load_b = cp_async, align_b = 2, store = direct> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %z = arith.mulf %alpha, %acc : f32
  epi.store %z : f32
  epi.yield
}

// Both copied (A 8 bytes, B 16 bytes at a time), batched, bf16 in, f32
// D; column bias and GELU.
wsgemm.gemm @cpa_coop_ab_a8_b16_batched batched a(bf16) b(bf16) d(f32)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          load_a = cp_async, align_a = 8,
                          load_b = cp_async, align_b = 16> {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : bf16 -> f32
  %z = arith.addf %acc, %bias : f32
  %g = epi.gelu %z : f32
  epi.store %g : f32
  epi.yield
}

// Split-K with a copied B (16 bytes at a time): the producer takes each
// unit's K range.
wsgemm.gemm @cpa_split2_bk_a16 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          split_k = 2, load_b = cp_async, align_b = 16> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Benchmarked (docs/perf-notes.md, "cp.async producers (issue 28,
// Hopper)"): cooperative 128x256, plain f16, against cuBLASLt on the same
// unaligned problem and against the TMA kernel (bench_cpa_tma_ref) on an
// aligned one.
wsgemm.gemm @bench_cpa_am_a2 a(f16, m_major) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          load_a = cp_async, align_a = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @bench_cpa_ak_a2 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          load_a = cp_async, align_a = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @bench_cpa_ak_a8 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          load_a = cp_async, align_a = 8> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @bench_cpa_ak_a16 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          load_a = cp_async, align_a = 16> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @bench_cpa_tma_ref a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @bench_cpa_mmajor_tma_ref a(f16, m_major) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
