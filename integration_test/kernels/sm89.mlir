// ws-gemm-compile-flags: --chip=sm_89 --sass-arch=sm_90a
//
// sm_89 (Ada) fp8 kernels (issue 28): the sm_8x kernel with e4m3 / e5m2 A
// and B, copied by cp.async into 128-byte (128-element) swizzled rows,
// read with the same ldmatrix as 16-bit operands and multiplied with
// mma.sync.m16n8k32 (f32 accumulation). The PTX targets sm_89 (ISA 8.4);
// the flags above assemble it for sm_90a, which executes fp8 mma.sync too,
// so that the lent H100 runs it. A and B are K-major, rows 16-byte aligned.

// The defaults (cooperative 128x128x128), e4m3 x e4m3, the usual scaled
// fp8 epilogue: D = scale_a * scale_b * acc in bf16.
wsgemm.gemm @s89_f8_coop_scaled_bf16 a(f8E4M3FN) b(f8E4M3FN) d(bf16)
    config #wsgemm.config<schedule = cooperative> {
^bb0(%acc: f32):
  %sa = epi.scalar param ["scale_a"] : f32
  %sb = epi.scalar param ["scale_b"] : f32
  %s = arith.mulf %sa, %sb : f32
  %y = arith.mulf %acc, %s : f32
  epi.store %y : f32
  epi.yield
}

// One consumer warpgroup (64x128), e4m3 x e5m2, column bias, f32 D.
wsgemm.gemm @s89_f8_ws64_e5m2_bias_f32 a(f8E4M3FN) b(f8E5M2) d(f32)
    config #wsgemm.config<tile = [64, 128, 128]> {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : f32 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.store %z : f32
  epi.yield
}

// Multistage (no producer warps), e5m2 x e4m3, batched, f16 D.
wsgemm.gemm @s89_f8_ms_batched_f16 batched a(f8E5M2) b(f8E4M3FN) d(f16)
    config #wsgemm.config<schedule = multistage> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Residual C (copied by the epilogue-load warp), GELU, row sums of the
// result into an f32 vector, 8-byte operand copies (align 8).
wsgemm.gemm @s89_f8_coop_c_gelu_rowsum a(f8E4M3FN) b(f8E4M3FN) c(bf16) d(bf16)
    config #wsgemm.config<schedule = cooperative, load_a = cp_async, align_a = 8,
                          load_b = cp_async, align_b = 8> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %z = arith.addf %acc, %c : f32
  %g = epi.gelu %z : f32
  epi.store %g : f32
  epi.reduce_to_vec_m sum %g, "rowsum" : f32
  epi.yield
}
