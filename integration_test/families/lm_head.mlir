// The LM head as a kernel family (lm-head.test): f16 logits with a bias
// along N, swept at build time (integration_test/CMakeLists.txt) over
//   --tiles 128x256 --schedules cooperative --axis store=tma|direct
// into <build>/integration_test/kernels/families/lm_head/. The runtime
// picks the TMA variant where the outputs' rows allow it and the direct
// one where they do not (N = 50257: rows of 100514 bytes).
wsgemm.gemm @lm_head a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.store %z : f32
  epi.yield
}
