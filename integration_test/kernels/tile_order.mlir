// Persistent kernels whose config names neither raster nor swizzle: they
// take both at launch in their tile_order parameter (docs/manifest.md,
// "Grid"). The run tests (gen_run_tests.py, "Launch-time tile order") check
// them at the runtime's choice and at forced orders (--raster, --swizzle)
// on ragged shapes, where the last band of a swizzle is narrower, for each
// tile scheduler that decodes tiles: cooperative, pingpong, clusters,
// split-K and stream-K.

// Cooperative 128x128 (planner defaults): C, per-row bias, ReLU.
wsgemm.gemm @to_coop_lincomb_f16 a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %scaled = arith.mulf %alpha, %acc : f32
  %beta_c = arith.mulf %beta, %c : f32
  %lincomb = arith.addf %scaled, %beta_c : f32
  %z = arith.addf %lincomb, %bias : f32
  %d = epi.relu %z : f32
  epi.store %d : f32
  epi.yield
}

// Pingpong 64x128 (the schedule's default for 64-row tiles): its two
// consumer warpgroups take alternate tiles of the CTA's sequence.
wsgemm.gemm @to_pp_bf16 a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [64, 128, 64]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// A 2x1 cluster (B multicast): groups of two tiles along M are decoded.
wsgemm.gemm @to_cl21_f16 a(f16) b(f16) d(f16)
    config #wsgemm.config<cluster = [2, 1, 1]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// A 1x2 cluster (A multicast) with a row sum and a column max: the
// reductions' coordinates follow the decoded tile.
wsgemm.gemm @to_cl12_reductions_f16 a(f16) b(f16) d(f16)
    config #wsgemm.config<cluster = [1, 2, 1]> {
^bb0(%acc: f32):
  epi.reduce_to_vec_m sum %acc, "rowsum" : f32
  epi.reduce_to_vec_n max %acc, "colmax" : f32
  epi.store %acc : f32
  epi.yield
}

// Split-K 2: (tile, split) units, the tile decoded from the unit.
wsgemm.gemm @to_split2_f16 a(f16) b(f16) d(f16)
    config #wsgemm.config<split_k = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Stream-K: stream-K units and data-parallel tiles, both decoded.
wsgemm.gemm @to_stream_bf16 a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<scheduler = stream_k> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// The kernels integration_test/tile-order-sweep.sh times at every order:
// plain bf16 with no config (cooperative 128x128) and with a 128x256 tile.
wsgemm.gemm @to_plain_bf16 a(bf16) b(bf16) d(bf16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @to_plain_bf16_128x256 a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 256, 64]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// The default family's 128x224 member (N a multiple of 224) with a fused
// epilogue: the tile's 7 epilogue subtiles of 32 columns, ragged edges.
wsgemm.gemm @to_bias_c_bf16_128x224 a(bf16) b(bf16) c(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 224, 64]> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %bias = epi.load_vec_n "bias" : bf16 -> f32
  %z = arith.addf %acc, %bias : f32
  %s = epi.silu %z : f32
  %d = arith.addf %s, %c : f32
  epi.store %d : f32
  epi.yield
}

// A 4x1 cluster (B in four parts): groups of four tiles along M.
wsgemm.gemm @to_cl41_f16 a(f16) b(f16) d(f16)
    config #wsgemm.config<cluster = [4, 1, 1]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
