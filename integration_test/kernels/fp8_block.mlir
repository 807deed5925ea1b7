// fp8 block-wise scaling (DeepSeek-V3's recipe, docs/fp8.md): A scaled per
// row per 128 of K, B per 128 x 128 block, applied in the mainloop at each
// k-tile's promotion. ws-gemm-run fills the scale tensors with positive
// values in [2^-8, 2^8] (powers of two and full-mantissa values) and its
// reference applies them exactly. gen_run_tests.py runs each on the fp8
// shapes (K = 208: a ragged second K block; K = 96 and 48: under one block)
// plus K = 4096 checked in full.

// e4m3 x e4m3 -> bf16 with a per-row bias, planner defaults (cooperative
// 128x128x128): the DeepGEMM configuration.
wsgemm.gemm @fb_e4m3_bf16_bias a(f8E4M3FN) b(f8E4M3FN) d(bf16)
    config #wsgemm.config<block_scaling = true> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : bf16 -> f32
  %d = arith.addf %acc, %bias : f32
  epi.store %d : f32
  epi.yield
}

// e4m3 x e5m2 -> f32 with a per-column bias, warp_specialized 64x128 (one
// warpgroup: 128 rows would need 2 x 128 accumulator registers).
wsgemm.gemm @fb_e4m3_e5m2_f32_ws a(f8E4M3FN) b(f8E5M2) d(f32)
    config #wsgemm.config<tile = [64, 128, 128], schedule = warp_specialized,
                          block_scaling = true> {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : f32 -> f32
  %d = arith.addf %acc, %bias : f32
  epi.store %d : f32
  epi.yield
}

// Tile N = 64 inside one 128-column scale block of B (nb = n0 / 128: two
// tiles share it), pingpong 64x64, e4m3 x e5m2 -> bf16.
wsgemm.gemm @fb_e4m3_e5m2_bf16_pp_n64 a(f8E4M3FN) b(f8E5M2) d(bf16)
    config #wsgemm.config<tile = [64, 64, 128], schedule = pingpong,
                          block_scaling = true> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Batched: the scales carry L (element (l * KB + kb) * M + m for A,
// (l * NB + nb) * KB + kb for B), e5m2 x e4m3 -> bf16.
wsgemm.gemm @fb_batched_e5m2_e4m3_bf16 batched a(f8E5M2) b(f8E4M3FN) d(bf16)
    config #wsgemm.config<block_scaling = true> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Split-K: a unit's k-tiles start at kBegin > 0, so it reads the scales of
// K blocks kBegin, kBegin + 1, ...; the scaled partial totals meet in the
// workspace. ReLU after the sum.
wsgemm.gemm @fb_split2_relu_bf16 a(f8E4M3FN) b(f8E4M3FN) d(bf16)
    config #wsgemm.config<split_k = 2, block_scaling = true> {
^bb0(%acc: f32):
  %d = epi.relu %acc : f32
  epi.store %d : f32
  epi.yield
}

// A cluster of 2 along M sharing B tiles (multicast); the scales are each
// CTA's own loads. f32 D.
wsgemm.gemm @fb_cl21_f32 a(f8E4M3FN) b(f8E4M3FN) d(f32)
    config #wsgemm.config<cluster = [2, 1, 1], block_scaling = true> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
