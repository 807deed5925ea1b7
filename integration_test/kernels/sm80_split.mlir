// ws-gemm-compile-flags: --chip=sm_80 --sass-arch=sm_90a
//
// sm_80 kernels whose tiles' K is split (issue 28): split-K and stream-K
// units sum through the workspace (TileSchedulerFixup.cpp) on Ampere as
// on Hopper; the last unit of a tile runs its epilogue. Without a
// schedule the planner takes the cooperative one (two consumer warpgroups
// of 64 rows, warp tiles 32x64): the one-warpgroup kernel's 128
// accumulators leave no registers for the fixup. PTX for sm_80,
// assembled for sm_90a to run on the lent H100.

// Split-K 2, f16, plain D.
wsgemm.gemm @s80_split2_plain a(f16) b(f16) d(f16)
    config #wsgemm.config<split_k = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Stream-K, bf16 -> f32 D: column bias, ReLU, and row sums of the result
// (the reduction runs once per tile, in its last unit's epilogue).
wsgemm.gemm @s80_streamk_bias_rowsum a(bf16) b(bf16) d(f32)
    config #wsgemm.config<scheduler = stream_k> {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : f32 -> f32
  %z = arith.addf %acc, %bias : f32
  %r = epi.relu %z : f32
  epi.reduce_to_vec_m sum %r, "row_sum" : f32
  epi.store %r : f32
  epi.yield
}

// The multistage schedule (no producer warps) with split-K 3.
wsgemm.gemm @s80_ms_split3 a(f16) b(f16) d(f16)
    config #wsgemm.config<split_k = 3, schedule = multistage> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Batched stream-K with C (alpha x acc + beta x C), warp tiles 32 x 128
// (warp_columns = 1, as beside C loads): the epilogue-load warp copies C
// for the last unit of each tile only.
wsgemm.gemm @s80_streamk_lincomb_batched batched a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<scheduler = stream_k> {
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

// Stream-K, f16, plain D: what bench-sm80.sh times beside the
// data-parallel kernels.
wsgemm.gemm @s80_streamk_plain a(f16) b(f16) d(f16)
    config #wsgemm.config<scheduler = stream_k> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
