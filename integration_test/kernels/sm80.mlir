// ws-gemm-compile-flags: --chip=sm_80 --sass-arch=sm_90a
//
// sm_80 kernels (issue 28, Ampere/Ada): cp.async producer warps fill the
// 128B-swizzled stages, consumer warps read them with ldmatrix and
// multiply with mma.sync.m16n8k16, D is stored with st.global. The PTX
// targets sm_80; the flags above assemble it for sm_90a so that the lent
// H100 runs it (every instruction it uses exists on sm_90). A and B are
// K-major with 16-byte aligned rows (align 16, the sm_8x default).

// The defaults: 128x128x64 warp_specialized (one consumer warpgroup),
// persistent, plain D.
wsgemm.gemm @s80_plain a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// The same with the load warps copying each tile out (copy_out = load, the
// planner's pick only for a static K up to 1024): the consumers stage the
// tile's 8 subtiles in a store ring of the whole tile and start the next
// mainloop.
wsgemm.gemm @s80_copyout_plain a(f16) b(f16) d(f16)
    config #wsgemm.config<copy_out = load> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// The cooperative kernel (8 consumer warps in two columns of 32 x 64).
wsgemm.gemm @s80_coop_plain a(f16) b(f16) d(f16)
    config #wsgemm.config<schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// One consumer warpgroup (warp tile 32 x 128), bf16, f32 D, alpha.
wsgemm.gemm @s80_ws_bf16_alpha a(bf16) b(bf16) d(f32)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %z = arith.mulf %alpha, %acc : f32
  epi.store %z : f32
  epi.yield
}

// The same one-warpgroup kernel storing bf16: what bench-sm80.sh times
// against CUTLASS's 128x128x64 sm_80 GEMM (which stores its A/B type).
wsgemm.gemm @s80_ws_bf16_plain a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Column bias + GELU, batched, 64x128 tile (one consumer warpgroup).
wsgemm.gemm @s80_ws64_batched_bias_gelu batched a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [64, 128, 64]> {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  %g = epi.gelu %z : f32
  epi.store %g : f32
  epi.yield
}

// Row bias + ReLU, cooperative, 8-byte copies (align 8).
wsgemm.gemm @s80_coop_rowbias_relu_a8 a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<schedule = cooperative,
                          load_a = cp_async, align_a = 8,
                          load_b = cp_async, align_b = 8> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : bf16 -> f32
  %z = arith.addf %acc, %bias : f32
  %zero = arith.constant 0.0 : f32
  %r = arith.maximumf %z, %zero : f32
  epi.store %r : f32
  epi.yield
}

// schedule = multistage (no producer warps): the 256 threads of two
// warpgroups copy k-tile k + stages - 1 with cp.async, wait on cp.async
// groups and bar.sync, then multiply k-tile k (MainloopSm80.cpp). The
// non-warp-specialized baseline of the kernels above, at their tile.
wsgemm.gemm @s80_ms_plain a(f16) b(f16) d(f16)
    config #wsgemm.config<schedule = multistage> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Multistage bf16 -> bf16, and its warp-specialized (cooperative) twin.
wsgemm.gemm @s80_ms_bf16_plain a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<schedule = multistage> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @s80_coop_bf16_plain a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Multistage, batched, 8-byte copies (align 8), 2 stages (the shallowest
// ring: wait_group 0): row bias + GELU.
wsgemm.gemm @s80_ms_batched_rowbias_gelu_a8 batched a(f16) b(f16) d(f16)
    config #wsgemm.config<schedule = multistage, stages = 2,
                          load_a = cp_async, align_a = 8,
                          load_b = cp_async, align_b = 8> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  %g = epi.gelu %z : f32
  epi.store %g : f32
  epi.yield
}

// The epilogue's other outputs (st.global and atomics; no TMA on sm_8x):
// an aux store of the pre-activation, row sums, column maxima and the
// absolute maximum beside D = relu(acc), cooperative (epilogue subtiles of
// 128x16: the planner refuses 128x32 for registers, 171 > 168).
wsgemm.gemm @s80_coop_aux_reductions a(f16) b(f16) d(f16)
    config #wsgemm.config<schedule = cooperative, epi_tile = [128, 16]> {
^bb0(%acc: f32):
  epi.aux_store %acc, "pre" : f32 -> f16
  epi.reduce_to_vec_m sum %acc, "rowsum" : f32
  epi.reduce_to_vec_n max %acc, "colmax" : f32
  epi.reduce_to_scalar absmax %acc, "amax" : f32
  %r = epi.relu %acc : f32
  epi.store %r : f32
  epi.yield
}

// The same outputs from the multistage kernel (256 threads, no producer),
// bf16, batched: aux store and column sums.
wsgemm.gemm @s80_ms_batched_aux_colsum batched a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<schedule = multistage> {
^bb0(%acc: f32):
  epi.aux_store %acc, "pre" : f32 -> bf16
  epi.reduce_to_vec_n sum %acc, "colsum" : f32
  epi.store %acc : f32
  epi.yield
}

// A reduce-store (D += acc with red.global.add.f32), warp_specialized.
wsgemm.gemm @s80_ws_reduce_add_f32 a(f16) b(f16) d(f32)
    config #wsgemm.config<schedule = warp_specialized> {
^bb0(%acc: f32):
  epi.store %acc reduce add : f32
  epi.yield
}

// The warp layout the planner does not pick: two columns of warps
// (warp_columns = 2) in the one-warpgroup kernel, 64 x 64 warp tiles, with
// what a subtile of two rectangles feeds (row and column vectors in; D,
// row, column and scalar reductions out; beside an aux store too it spilled
// 48 bytes at 255 registers), and wgmma's layout (warp_columns = 1, 16 x
// 128) in the multistage kernel, batched, with an aux store.
wsgemm.gemm @s80_ws_w2_vectors_reductions a(f16) b(f16) d(f32)
    config #wsgemm.config<schedule = warp_specialized, warp_columns = 2> {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : f16 -> f32
  %rb = epi.load_vec_m "rbias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  %y = arith.addf %z, %rb : f32
  epi.reduce_to_vec_m sum %y, "rowsum" : f32
  epi.reduce_to_vec_n max %y, "colmax" : f32
  epi.reduce_to_scalar absmax %y, "amax" : f32
  epi.store %y : f32
  epi.yield
}

wsgemm.gemm @s80_ms_w1_batched_aux_relu batched a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<schedule = multistage, warp_columns = 1> {
^bb0(%acc: f32):
  epi.aux_store %acc, "pre" : f32 -> bf16
  %r = epi.relu %acc : f32
  epi.store %r : f32
  epi.yield
}

// C and aux matrices without TMA: the epilogue-load warp's 32 threads copy
// each 64 x epi N subtile into the layout TMA would write, 16 bytes per
// cp.async (zero fill past M and N), and arrive on the epilogue pipeline's
// full barrier as the copies land (Epilogue.cpp). Cooperative lincomb,
// f16 C, with beta gating C off at run time (skip_if_zero).
wsgemm.gemm @s80_coop_lincomb_c a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<schedule = cooperative> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src skip_if_zero "beta" : f32
  %x = arith.mulf %alpha, %acc : f32
  %y = arith.mulf %beta, %c : f32
  %z = arith.addf %x, %y : f32
  epi.store %z : f32
  epi.yield
}

// Batched, warp_specialized 64x128: bf16 C, an f16 residual (aux load),
// column bias and GELU; f32 D.
wsgemm.gemm @s80_ws64_batched_c_residual batched a(bf16) b(bf16) c(bf16) d(f32)
    config #wsgemm.config<tile = [64, 128, 64]> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %res = epi.aux_load "residual" : f16 -> f32
  %bias = epi.load_vec_n "bias" : bf16 -> f32
  %x = arith.addf %acc, %c : f32
  %y = arith.addf %x, %res : f32
  %z = arith.addf %y, %bias : f32
  %g = epi.gelu %z : f32
  epi.store %g : f32
  epi.yield
}

