// ws-gemm-compile-flags: --chip=sm_80 --sass-arch=sm_90a
//
// sm_80 kernels that need sm_80's 163 KiB of shared memory per block (sm_86
// and sm_89 have 99 KiB), so kernels/sm80.mlir (compiled for every sm_8x
// chip by test/Target/PTX/sm80-ptxas.test) cannot hold them. PTX for sm_80,
// assembled for sm_90a to run on the lent H100.

// Multistage 128x256 with two columns of warps written (warp tiles 32 x
// 128; the default is four columns of one, 64 x 64). 128 accumulators a
// thread: too many for a 384-thread warp-specialized block. 3 stages of
// 48 KiB.
wsgemm.gemm @s80_ms256_plain a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = multistage,
                          warp_columns = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// f32 C (256-byte subtile rows: no swizzle) with an aux store beside D,
// warp_specialized 128x128 (sm_86/89: over 99 KiB even with 2 C stages).
wsgemm.gemm @s80_ws_c32_aux_store a(f16) b(f16) c(f32) d(f16)
    config #wsgemm.config<schedule = warp_specialized> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %z = arith.addf %acc, %c : f32
  epi.aux_store %z, "pre" : f32 -> f32
  %r = epi.relu %z : f32
  epi.store %r : f32
  epi.yield
}

// Cooperative with two columns of warps asked for beside C and aux loads
// (the planner keeps one column there: with an f32 C and this residual the
// two spilled 32 bytes at 168 registers): each subtile's C and residual
// rectangles copied side by side, batched, ReLU (sm_86/89: over 99 KiB
// even with 2 C stages).
wsgemm.gemm @s80_coop_w2_batched_c_residual batched a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<schedule = cooperative, warp_columns = 2> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %res = epi.aux_load "residual" : bf16 -> f32
  %x = arith.addf %acc, %c : f32
  %y = arith.addf %x, %res : f32
  %r = epi.relu %y : f32
  epi.store %r : f32
  epi.yield
}

// copy_out = load written where the planner keeps the consumers' copy-out
// (an f32 D: the whole-tile store ring leaves 2 stages beside the aux
// store's): the load warps copy D's and the aux store's subtiles out, as
// two rectangles each (two columns of warps), D reduced into with
// red.global.add; the row sums stay with the consumers.
wsgemm.gemm @s80_ws_copyout_aux_w2 a(f16) b(f16) d(f32)
    config #wsgemm.config<schedule = warp_specialized, warp_columns = 2,
                          copy_out = load> {
^bb0(%acc: f32):
  epi.aux_store %acc, "pre" : f32 -> bf16
  epi.reduce_to_vec_m sum %acc, "rowsum" : f32
  %r = epi.relu %acc : f32
  epi.store %r reduce add : f32
  epi.yield
}

// The pipelined multistage loop's layouts (issue 28): four columns of
// warps (warp_columns = 4, 64 x 64 warp tiles, CUTLASS's at 128x256) with
// what a subtile of four 16-row rectangles feeds: column and row vectors
// in, an aux store and row sums out, batched.
wsgemm.gemm @s80_ms256_w4_vectors_aux_rowsum batched a(f16) b(f16) d(bf16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = multistage,
                          warp_columns = 4> {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : f16 -> f32
  %rb = epi.load_vec_m "rbias" : f16 -> f32
  %s = arith.addf %acc, %bias : f32
  %t = arith.addf %s, %rb : f32
  %r = epi.relu %t : f32
  epi.aux_store %t, "pre" : f32 -> f16
  epi.reduce_to_vec_m sum %r, "rowsum" : f32
  epi.store %r : f32
  epi.yield
}

// The default family's 128x256 stream-K member as sm_80 plans it: no
// schedule written, so multistage (the cooperative kernel's registers
// cannot hold 128 accumulators a thread), stream-K units summed through
// the workspace.
wsgemm.gemm @s80_256_streamk a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], scheduler = stream_k> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// 128x128 multistage with four columns of warps (64 x 32 warp tiles), bf16.
wsgemm.gemm @s80_ms_w4_bf16_plain a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<schedule = multistage, warp_columns = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Two stages (what sm_86/89's 99 KiB hold at 128x128): the pipelined loop
// copies k-tile kt + 1 during k-tile kt and waits for all of it (wait_group
// 0) before that k-tile's first fragments.
wsgemm.gemm @s80_ms_s2_f32 a(f16) b(f16) d(f32)
    config #wsgemm.config<schedule = multistage, stages = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// 256-row multistage tiles (256x128: two warpgroups of 128 rows, 128
// accumulators a thread), no schedule written: the planner takes
// multistage, as for 128x256. Row and column vectors in, column sums and
// an absmax out, batched.
wsgemm.gemm @s80_ms256r_vectors_colsum batched a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [256, 128, 64]> {
^bb0(%acc: f32):
  %rb = epi.load_vec_m "rbias" : f16 -> f32
  %cb = epi.load_vec_n "cbias" : bf16 -> f32
  %s = arith.addf %acc, %rb : f32
  %t = arith.addf %s, %cb : f32
  epi.reduce_to_vec_n sum %t, "colsum" : f32
  epi.reduce_to_scalar absmax %t, "amax" : f32
  epi.store %t : f32
  epi.yield
}
