// Broadcast leaves: vectors indexed by m (one per row of D) and by n (one
// per column), and auxiliary M x N matrices, in f16, bf16 and f32.
// broadcast.test runs them.

// Per-row bias, f16.
wsgemm.gemm @bc_vecm_f16 a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %r = arith.addf %acc, %bias : f32
  epi.store %r : f32
  epi.yield
}

// Per-column bias, bf16, N-major B, warp_specialized.
wsgemm.gemm @bc_vecn_bf16_ws a(bf16) b(bf16, n_major) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "colbias" : bf16 -> f32
  %r = arith.addf %acc, %bias : f32
  epi.store %r : f32
  epi.yield
}

// Per-row scale and per-column bias, both f32, f32 D, 128x256.
wsgemm.gemm @bc_vecm_vecn_f32 a(f16) b(f16) d(f32)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative> {
^bb0(%acc: f32):
  %scale = epi.load_vec_m "rowscale" : f32 -> f32
  %bias = epi.load_vec_n "colbias" : f32 -> f32
  %r = math.fma %acc, %scale, %bias : f32
  epi.store %r : f32
  epi.yield
}

// Residual add from an f16 auxiliary matrix.
wsgemm.gemm @bc_aux_f16 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative> {
^bb0(%acc: f32):
  %res = epi.aux_load "residual" : f16 -> f32
  %r = arith.addf %acc, %res : f32
  epi.store %r : f32
  epi.yield
}

// Two auxiliary matrices of different types (bf16, f32), warp_specialized,
// 128x64.
wsgemm.gemm @bc_aux_bf16_f32_ws a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 64, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  %x = epi.aux_load "gate" : bf16 -> f32
  %y = epi.aux_load "shift" : f32 -> f32
  %g = arith.mulf %acc, %x : f32
  %r = arith.addf %g, %y : f32
  epi.store %r : f32
  epi.yield
}

// Everything at once: C, per-row and per-column vectors, an aux matrix.
wsgemm.gemm @bc_all a(f16) b(f16, n_major) c(bf16) d(f16)
    config #wsgemm.config<tile = [256, 128, 64], schedule = cooperative> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %rb = epi.load_vec_m "rowbias" : bf16 -> f32
  %cb = epi.load_vec_n "colbias" : f16 -> f32
  %res = epi.aux_load "residual" : f16 -> f32
  %x = arith.addf %acc, %c : f32
  %y = arith.addf %x, %rb : f32
  %z = arith.addf %y, %cb : f32
  %r = arith.addf %z, %res : f32
  epi.store %r : f32
  epi.yield
}
