// Plain GEMMs, D = acc: every A/B/D element-type combination the lowering
// takes, both B layouts, both schedules. Each kernel is named after what it
// covers; plain.test runs them.

// f16 x f16 -> f16, planner defaults (cooperative 128x128, persistent).
wsgemm.gemm @plain_f16 a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// bf16 -> bf16, one consumer warpgroup of 128 rows, 4 stages.
wsgemm.gemm @plain_bf16_ws a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], stages = 4,
                          schedule = warp_specialized> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// f16 -> f32 D (vector st.shared instead of stmatrix).
wsgemm.gemm @plain_f16_d32 a(f16) b(f16) d(f32)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// bf16, N-major B, f32 D.
wsgemm.gemm @plain_bf16_nmajor_d32 a(bf16) b(bf16, n_major) d(f32)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// f16, N-major B, warp_specialized, 2 stages.
wsgemm.gemm @plain_f16_nmajor_ws a(f16) b(f16, n_major) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], stages = 2,
                          schedule = warp_specialized> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// bf16 inputs, f16 D (D's type is independent of A/B's), N-major B.
wsgemm.gemm @plain_bf16_nmajor_d16 a(bf16) b(bf16, n_major) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
