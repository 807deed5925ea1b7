// An LM head: f16 logits with a bias along N, B (the embedding) stored
// N x K, K-major. With a vocabulary of N = 50257, D's rows (100514 bytes)
// break TMA's 16-byte stride rule: the runtime refuses packed rows and
// names the fix, a leading dimension padded to 50264 (README, "Limits
// today"); lm-head.test runs it both ways.
wsgemm.gemm @lm_head_f16 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative> {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.store %z : f32
  epi.yield
}
