// An fp8 GEMM with row-wise scaling, the FP8 inference recipe: A (the
// activations) quantized to e4m3 with one scale per row (per token), B (the
// weights) with one scale per output channel, and a bf16 output with a
// per-channel bias:
//
//   D = bf16(acc * scale_a[m] * scale_b[n] + bias[n]),
//   acc = sum_k A[m, k] * B[n, k]   (e4m3 products, f32 accumulation)
//
// Both operands are K-major, as wgmma needs for 8-bit types: A is M x K and
// B is stored N x K (the "TN" layout cuBLASLt's fp8 GEMM also takes). The
// planner's tile is 128 x 128 x 128: tile K is 128 bytes of e4m3, one row
// of the 128B swizzle. The scales are f32 vectors read once per row and
// column of a thread's accumulator fragment (epi.load_vec_m / load_vec_n).
//
//   ws-gemm-compile examples/gemm_fp8_rowwise.mlir -o out
//   ws-gemm-run out/gemm_fp8_rowwise.json --m 1024 --n 4096 --k 4096   # GPU

wsgemm.gemm @gemm_fp8_rowwise a(f8E4M3FN) b(f8E4M3FN) d(bf16) {
^bb0(%acc: f32):
  %scale_a = epi.load_vec_m "scale_a" : f32 -> f32
  %scale_b = epi.load_vec_n "scale_b" : f32 -> f32
  %bias = epi.load_vec_n "bias" : bf16 -> f32
  %x = arith.mulf %acc, %scale_a : f32
  %y = arith.mulf %x, %scale_b : f32
  %d = arith.addf %y, %bias : f32
  epi.store %d : f32
  epi.yield
}
