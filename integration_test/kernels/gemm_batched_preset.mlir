// examples/gemm_batched_ragged.mlir through the LinearCombination
// preset (D = alpha * acc + beta * C), batched.

wsgemm.gemm @gemm_batched_preset batched a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative> {
^bb0(%acc: f32):
  epi.fusion LinearCombination %acc : f32
  epi.yield
}
