// The kernels of the PyTorch benchmark (python/bench/torch_bench.py,
// issue 27): the epilogues an LLM layer fuses into its projections, written
// as a user would write them: NO `config` (the planner's default; the
// no-config path is what is measured), bf16 operands, f32 epilogue math.
//
//   A = activations, M x K, row-major (k_major, the default)
//   B = the weight as nn.Linear stores it, N x K (k_major, the default)
//   D = M x N, bf16 (fp8 e4m3 for the quantizing kernel)
//
// Matrices read in the epilogue (residual, SwiGLU's `up`) are taken as C
// (epi.load_src): C is the source operand the epilogue collective fetches
// by TMA ahead of the subtile that needs it, the CUTLASS Sm90SrcFetch path,
// and what a user would reach for first for "D = f(acc) + something".
// The *_aux variants read the same matrix through epi.aux_load instead
// (Sm90AuxLoad); the benchmark runs them only when asked (--epilogues), to
// compare the two paths.
//
// Compile (build machine):  ws-gemm-compile python/bench/kernels.mlir -o DIR
// (the CMake target ws-gemm-integration-kernels does it into
// <build>/integration_test/kernels/torch_bench/, which stage-for-gpu.sh
// carries to .device/integration_test/kernels/torch_bench/).

// torch.mm / nn.Linear without bias: D = acc.
wsgemm.gemm @tb_plain a(bf16) b(bf16) d(bf16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// nn.Linear with bias (e.g. Qwen2's q/k/v projections): D = acc + bias[n].
wsgemm.gemm @tb_bias a(bf16) b(bf16) d(bf16) {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : bf16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.store %z : f32
  epi.yield
}

// o_proj / down_proj with a bias and the residual stream added:
// D = acc + bias[n] + res[m, n]; the residual is C.
wsgemm.gemm @tb_bias_residual a(bf16) b(bf16) c(bf16) d(bf16) {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : bf16 -> f32
  %res = epi.load_src : f32
  %z = arith.addf %acc, %bias : f32
  %d = arith.addf %z, %res : f32
  epi.store %d : f32
  epi.yield
}

// The same with the residual as an aux input "res" (for comparison).
wsgemm.gemm @tb_bias_residual_aux a(bf16) b(bf16) d(bf16) {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : bf16 -> f32
  %res = epi.aux_load "res" : bf16 -> f32
  %z = arith.addf %acc, %bias : f32
  %d = arith.addf %z, %res : f32
  epi.store %d : f32
  epi.yield
}

// MLP up-projection with GELU (GPT-2/BERT/Falcon style):
// D = gelu(acc + bias[n]), erf GELU as torch's default nn.GELU().
wsgemm.gemm @tb_bias_gelu a(bf16) b(bf16) d(bf16) {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : bf16 -> f32
  %z = arith.addf %acc, %bias : f32
  %d = epi.gelu %z : f32
  epi.store %d : f32
  epi.yield
}

// The same with fastmath<afn>: the tanh form on tanh.approx.f32 (within
// 4.7e-4 of the erf form plus tanh.approx's 2^-11 relative error).
wsgemm.gemm @tb_bias_gelu_afn a(bf16) b(bf16) d(bf16) {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : bf16 -> f32
  %z = arith.addf %acc, %bias : f32
  %d = epi.gelu %z fastmath<afn> : f32
  epi.store %d : f32
  epi.yield
}

// The same with the tanh approximation (nn.GELU(approximate="tanh"), and
// what torch._addmm_activation(use_gelu=True) computes through cuBLASLt's
// GELU_BIAS epilogue).
wsgemm.gemm @tb_bias_gelu_tanh a(bf16) b(bf16) d(bf16) {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : bf16 -> f32
  %z = arith.addf %acc, %bias : f32
  %d = epi.gelu_taylor %z : f32
  epi.store %d : f32
  epi.yield
}

// SwiGLU gating (Llama's MLP): the gate projection's GEMM with the up
// projection's result `up` (M x N, already computed) as C:
// D = silu(acc) * up.
wsgemm.gemm @tb_swiglu a(bf16) b(bf16) c(bf16) d(bf16) {
^bb0(%acc: f32):
  %up = epi.load_src : f32
  %g = epi.silu %acc : f32
  %d = arith.mulf %g, %up : f32
  epi.store %d : f32
  epi.yield
}

// The same with fastmath<afn> on the activation: silu's exp and reciprocal
// become ex2.approx and rcp.approx (docs/epi.md, "Approximate activations").
wsgemm.gemm @tb_swiglu_afn a(bf16) b(bf16) c(bf16) d(bf16) {
^bb0(%acc: f32):
  %up = epi.load_src : f32
  %g = epi.silu %acc fastmath<afn> : f32
  %d = arith.mulf %g, %up : f32
  epi.store %d : f32
  epi.yield
}

// The same with `up` as an aux input (for comparison).
wsgemm.gemm @tb_swiglu_aux a(bf16) b(bf16) d(bf16) {
^bb0(%acc: f32):
  %up = epi.aux_load "up" : bf16 -> f32
  %g = epi.silu %acc : f32
  %d = arith.mulf %g, %up : f32
  epi.store %d : f32
  epi.yield
}

// o_proj / down_proj + residual, with the next RMSNorm's statistics:
// z = acc + res (res = C), D = z, rowsumsq[m] = sum over n of z * z (f32,
// length M; must hold 0 before the launch). The next layer normalizes by
// rsqrt(rowsumsq / N + eps) without reading D again for the statistics.
wsgemm.gemm @tb_residual_rmsstats a(bf16) b(bf16) c(bf16) d(bf16) {
^bb0(%acc: f32):
  %res = epi.load_src : f32
  %z = arith.addf %acc, %res : f32
  %sq = arith.mulf %z, %z : f32
  epi.reduce_to_vec_m sum %sq, "rowsumsq" : f32
  epi.store %z : f32
  epi.yield
}

// A projection whose output feeds an fp8 GEMM (Transformer Engine's
// delayed scaling): D = e4m3(acc * scale) (saturating, as TE's cast after
// its clamp), scale an f32 on the device; amax = max |acc| over the whole
// output, of the unscaled high-precision value as TE records it (f32, one
// value; must hold 0 before the launch).
wsgemm.gemm @tb_fp8_amax a(bf16) b(bf16) d(f8E4M3FN) {
^bb0(%acc: f32):
  %scale = epi.scalar ptr ["scale"] : f32
  epi.reduce_to_scalar absmax %acc, "amax" : f32
  %d = arith.mulf %acc, %scale : f32
  epi.store %d : f32
  epi.yield
}

// W4A16, a GPTQ int4 weight (docs/mixed-input.md; torch_mixed_bench.py):
// A = the weight packed by ws_gemm.prepack_i4 (N_out x K as torch.uint8
// N_out x K/2), group-128 bf16 scales and ui4 zero points; B = the
// activations (tokens x K); D = N_out x tokens, column-major: its storage
// is Y = x W^T (tokens x N_out, row-major), what nn.Linear returns. No
// config: the mixed-input default family (decode tilings).
wsgemm.gemm @tb_w4 a(i4) b(bf16) d(bf16, m_major)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// The same with nn.Linear's bias (per output channel: epi.load_vec_m).
wsgemm.gemm @tb_w4_bias a(i4) b(bf16) d(bf16, m_major)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : bf16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.store %z : f32
  epi.yield
}

// W8A16 (torch_mixed_bench.py --weight w8 / f8): an int8 or fp8 e4m3
// weight with one bf16 scale per output channel, packed by
// ws_gemm.prepack_b8 (N_out x K bytes); D column-major as tb_w4's.
wsgemm.gemm @tb_w8 a(i8) b(bf16) d(bf16, m_major)
    dequant_a #wsgemm.dequant<scale = bf16, group = 0, zero = none> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @tb_f8w a(f8E4M3FN) b(bf16) d(bf16, m_major)
    dequant_a #wsgemm.dequant<scale = bf16, group = 0, zero = none> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
