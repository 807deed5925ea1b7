// examples/gemm_relu.mlir with the named activation, epi.relu, in
// place of max(z, 0). Same EVT, same reference: the two kernels must agree.

wsgemm.gemm @gemm_bias_relu_epi a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %scaled = arith.mulf %alpha, %acc : f32
  %biased = arith.addf %scaled, %bias : f32
  %beta_c = arith.mulf %beta, %c : f32
  %z = arith.addf %beta_c, %biased : f32
  %d = epi.relu %z : f32
  epi.store %d : f32
  epi.yield
}
