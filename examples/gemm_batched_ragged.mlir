// A batched GEMM for ragged shapes: L independent problems of one M x N x K,
// every operand batch-outermost. No dimension needs to be a multiple of the
// tile: TMA zero-fills out-of-bounds loads and clips stores, so the last row
// and column of tiles is partial (e.g. M=1000, N=3000, K=200, L=3). The
// only rule is the 16-byte one on strides: K * 2 and N * 2 multiples of 16.
//
//   D[l] = alpha * acc[l] + beta * C[l]
//
// integration_test/kernels/pending/gemm_batched_preset.mlir is the same
// kernel through `epi.fusion LinearCombination`.
//
//   ws-gemm-compile examples/gemm_batched_ragged.mlir -o out
//   ws-gemm-run out/gemm_batched_ragged.json --m 1000 --n 3000 --k 200 --l 3

wsgemm.gemm @gemm_batched_ragged batched a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %x = arith.mulf %alpha, %acc : f32
  %y = arith.mulf %beta, %c : f32
  %d = arith.addf %x, %y : f32
  epi.store %d : f32
  epi.yield
}
