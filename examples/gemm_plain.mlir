// A plain GEMM, D = A * B, f16 in and out with f32 accumulation. With no
// config the planner picks CUTLASS's defaults (cooperative 128x128 tile,
// persistent, stages from the SMEM left over).
//
//   ws-gemm-compile examples/gemm_plain.mlir -o out
//   ws-gemm-run out/gemm_plain.json --m 4096 --n 4096 --k 4096

wsgemm.gemm @gemm_plain a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
