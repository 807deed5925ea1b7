// The kernel family of the tuning tests (integration_test/family-*.test,
// tune-family.test): CUTLASS's LinCombPerRowBiasEltAct<ReLU>, swept by
// ws-gemm-sweep at build time (integration_test/CMakeLists.txt) over
//   --tiles 128x128,128x256,64x128 --schedules auto,pingpong
// into <build>/integration_test/kernels/families/tiny/. Configs the planner
// refuses (pingpong, until it is lowered) are skipped, not errors.
wsgemm.gemm @tiny_bias_relu a(f16) b(f16) c(f16) d(f16) {
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
