// The no-C control of docs/perf-notes.md, "What C costs the fused kernel":
// bench_lincomb_relu_{f16,bf16} (integration_test/kernels/bench.mlir) with
// the beta * C term removed, same config (128x256 cooperative, swizzle 4).
wsgemm.gemm @noc_relu_f16 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          swizzle = 4> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %scaled = math.fma %alpha, %acc, %bias : f32
  %d = epi.relu %scaled : f32
  epi.store %d : f32
  epi.yield
}
wsgemm.gemm @noc_relu_bf16 a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          swizzle = 4> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %bias = epi.load_vec_m "bias" : bf16 -> f32
  %scaled = math.fma %alpha, %acc, %bias : f32
  %d = epi.relu %scaled : f32
  epi.store %d : f32
  epi.yield
}
