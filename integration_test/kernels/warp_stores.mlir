// warp_stores = true with 16-bit outputs (the planner's default turns it on
// for an 8-bit D only; fp8.mlir's kernels cover that): each warp TMA-stores
// the 16 rows it holds, from its slice of the staging buffer, with no
// warpgroup barrier around the write. Covered here: C loaded beside it
// (its stage still goes back after a warpgroup barrier), aux stores, the
// pingpong hand-off, split-K's fixup, and a warp_specialized 128-row
// warpgroup. warp_stores.test and the ws_* run tests.

// Cooperative 128x256, C (not reused: warp_stores excludes reuse_smem_c),
// per-row bias, an f16 aux store, ReLU.
wsgemm.gemm @ws_coop_c_aux_f16 a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          reuse_smem_c = false, warp_stores = true> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %z = arith.mulf %alpha, %acc : f32
  %zb = arith.addf %z, %bias : f32
  %y = math.fma %beta, %c, %zb : f32
  epi.aux_store %y, "preact" : f32 -> f16
  %zero = arith.constant 0.0 : f32
  %r = arith.maximumf %y, %zero : f32
  epi.store %r : f32
  epi.yield
}

// Pingpong 128x128 bf16 with C and a bf16 aux store: each warpgroup hands
// the epilogue turn on once its warps' stores have read shared memory.
wsgemm.gemm @ws_pp_c_aux_bf16 a(bf16) b(bf16, n_major) c(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = pingpong,
                          swizzle = 4, reuse_smem_c = false,
                          warp_stores = true> {
^bb0(%acc: f32):
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %y = math.fma %beta, %c, %acc : f32
  epi.aux_store %acc, "acc" : f32 -> bf16
  %g = epi.gelu %y : f32
  epi.store %g : f32
  epi.yield
}

// split_k = 2, warp_specialized 128x128 (one warpgroup of 128 rows: two
// 64-row blocks per subtile column), f32 D and a column sum.
wsgemm.gemm @ws_split2_ws_d32 a(f16) b(f16) d(f32)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized,
                          split_k = 2, warp_stores = true> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %z = arith.mulf %alpha, %acc : f32
  epi.reduce_to_vec_n sum %z, "colsum" : f32
  epi.store %z : f32
  epi.yield
}
