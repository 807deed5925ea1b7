// Epilogues that read C: alpha * acc + beta * C with C in f16, bf16 and
// f32, ReuseSmemC on and off, DelayTmaStore on and off, and a C that is
// declared but never read. lincomb.test runs them.

// C f16, D f16, cooperative: the planner turns reuse_smem_c on (C and D of
// one width) and delay_tma_store off.
wsgemm.gemm @lc_f16_reuse a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %x = arith.mulf %alpha, %acc : f32
  %y = arith.mulf %beta, %c : f32
  %r = arith.addf %x, %y : f32
  epi.store %r : f32
  epi.yield
}

// The same with D in its own buffers.
wsgemm.gemm @lc_f16_noreuse a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<schedule = cooperative, reuse_smem_c = false,
                          delay_tma_store = false> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %x = arith.mulf %alpha, %acc : f32
  %y = arith.mulf %beta, %c : f32
  %r = arith.addf %x, %y : f32
  epi.store %r : f32
  epi.yield
}

// bf16 C and D, warp_specialized, stores delayed by one subtile.
wsgemm.gemm @lc_bf16_delay_ws a(bf16) b(bf16) c(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized,
                          reuse_smem_c = false, delay_tma_store = true,
                          stages_d = 2> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %x = arith.mulf %alpha, %acc : f32
  %y = arith.mulf %beta, %c : f32
  %r = arith.addf %x, %y : f32
  epi.store %r : f32
  epi.yield
}

// bf16 C and D with ReuseSmemC, warp_specialized, N-major B.
wsgemm.gemm @lc_bf16_reuse_ws_nmajor a(bf16) b(bf16, n_major) c(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized,
                          reuse_smem_c = true> {
^bb0(%acc: f32):
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %r = math.fma %beta, %c, %acc : f32
  epi.store %r : f32
  epi.yield
}

// f32 C, f16 D (different widths: no reuse).
wsgemm.gemm @lc_c32_d16 a(f16) b(f16) c(f32) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %x = arith.mulf %alpha, %acc : f32
  %y = arith.mulf %beta, %c : f32
  %r = arith.addf %x, %y : f32
  epi.store %r : f32
  epi.yield
}

// f16 C, f32 D, N-major B, 256x128.
wsgemm.gemm @lc_c16_d32_256x128 a(f16) b(f16, n_major) c(f16) d(f32)
    config #wsgemm.config<tile = [256, 128, 64], schedule = cooperative> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %x = arith.mulf %alpha, %acc : f32
  %y = arith.mulf %beta, %c : f32
  %r = arith.addf %x, %y : f32
  epi.store %r : f32
  epi.yield
}

// f32 C and f32 D with ReuseSmemC, 128x256.
wsgemm.gemm @lc_f32_reuse_128x256 a(bf16) b(bf16) c(f32) d(f32)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          reuse_smem_c = true> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %r = arith.subf %acc, %c : f32
  epi.store %r : f32
  epi.yield
}

// No C and delay_tma_store explicitly off (its default without C is on).
wsgemm.gemm @lc_noc_nodelay a(f16) b(f16) d(f16)
    config #wsgemm.config<schedule = cooperative, delay_tma_store = false> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %r = arith.mulf %alpha, %acc : f32
  epi.store %r : f32
  epi.yield
}

// C declared but never read: the kernel takes no C.
wsgemm.gemm @lc_c_unread a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 64, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// C gated by beta (skipped when beta == 0) next to an aux load: the
// epilogue-load warp keeps running for the aux matrix and announces C's
// bytes only when beta != 0 (mbarrier.expect_tx). Warp-specialized with
// DelayTmaStore; then cooperative (two consumer warpgroups share a stage)
// with ReuseSmemC.
wsgemm.gemm @lc_gated_aux_ws a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized,
                          reuse_smem_c = false, delay_tma_store = true> {
^bb0(%acc: f32):
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src skip_if_zero "beta" : f32
  %res = epi.aux_load "residual" : f16 -> f32
  %y = arith.mulf %beta, %c : f32
  %z = arith.addf %acc, %y : f32
  %r = arith.addf %z, %res : f32
  epi.store %r : f32
  epi.yield
}

wsgemm.gemm @lc_gated_aux_coop_reuse a(bf16) b(bf16) c(bf16) d(bf16)
    config #wsgemm.config<schedule = cooperative, reuse_smem_c = true> {
^bb0(%acc: f32):
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src skip_if_zero "beta" : f32
  %res = epi.aux_load "residual" : f32 -> f32
  %y = arith.mulf %beta, %c : f32
  %z = arith.addf %acc, %y : f32
  %r = arith.addf %z, %res : f32
  epi.store %r : f32
  epi.yield
}
