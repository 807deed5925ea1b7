// GELU with a per-column bias and a bf16 output, the MLP up-projection
// epilogue:
//
//   D = gelu(acc + bias[n]),  gelu(x) = 0.5 x (1 + erf(x / sqrt(2)))
//
// A and B are bf16 (B stored K x N, N contiguous), the bias one bf16 value
// per column n of D (CUTLASS: Sm90RowBroadcast, its "PerColBias"). GELU is
// written out with math.erf; `epi.gelu %z : f32` is the same node once the
// named activations lower (integration_test/kernels/pending/).
//
//   ws-gemm-compile examples/gemm_gelu_colbias.mlir -o out

wsgemm.gemm @gemm_gelu_colbias a(bf16) b(bf16, n_major) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative> {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : bf16 -> f32
  %z = arith.addf %acc, %bias : f32
  %half = arith.constant 0.5 : f32
  %one = arith.constant 1.0 : f32
  %rsqrt2 = arith.constant 0.70710678118654752 : f32
  %s = arith.mulf %z, %rsqrt2 : f32
  %e = math.erf %s : f32
  %t = arith.addf %e, %one : f32
  %h = arith.mulf %z, %half : f32
  %d = arith.mulf %h, %t : f32
  epi.store %d : f32
  epi.yield
}
