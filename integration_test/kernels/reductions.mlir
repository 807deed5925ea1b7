// Reductions of an epilogue value: per row (reduce_to_vec_m, across n), per
// column (reduce_to_vec_n, across m) and to one scalar, with every kind
// (sum, max, min, absmax). ws-gemm-run initialises each output to the
// kind's identity and checks it element by element. reductions.test runs
// them.

// Row max of D (cooperative).
wsgemm.gemm @red_vecm_max a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.reduce_to_vec_m max %acc, "rowmax" : f32
  epi.store %acc : f32
  epi.yield
}

// Column sum, bf16, warp_specialized, N-major B.
wsgemm.gemm @red_vecn_sum_ws a(bf16) b(bf16, n_major) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  epi.reduce_to_vec_n sum %acc, "colsum" : f32
  epi.store %acc : f32
  epi.yield
}

// Scalar absmax (the amax of fp8 scaling) of alpha * acc, f32 D.
wsgemm.gemm @red_scalar_absmax a(f16) b(f16) d(f32) {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %z = arith.mulf %alpha, %acc : f32
  epi.reduce_to_scalar absmax %z, "amax" : f32
  epi.store %z : f32
  epi.yield
}

// Scalar min, warp_specialized 128x64.
wsgemm.gemm @red_scalar_min_ws a(bf16) b(bf16) d(f16)
    config #wsgemm.config<tile = [128, 64, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  epi.reduce_to_scalar min %acc, "gmin" : f32
  epi.store %acc : f32
  epi.yield
}

// The other kinds per row and per column, on a value that is not D.
wsgemm.gemm @red_mixed_kinds a(f16) b(f16, n_major) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative> {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %z = arith.addf %acc, %c : f32
  epi.reduce_to_vec_m sum %z, "rowsum" : f32
  epi.reduce_to_vec_m min %z, "rowmin" : f32
  epi.reduce_to_vec_n max %z, "colmax" : f32
  epi.reduce_to_vec_n absmax %z, "colamax" : f32
  %zero = arith.constant 0.0 : f32
  %r = arith.maximumf %z, %zero : f32
  epi.store %r : f32
  epi.yield
}

// All three shapes in one warp_specialized epilogue, 2 stages.
wsgemm.gemm @red_all_shapes_ws a(f16) b(f16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], stages = 2,
                          schedule = warp_specialized> {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.reduce_to_vec_m max %z, "rowmax" : f32
  epi.reduce_to_vec_n sum %z, "colsum" : f32
  epi.reduce_to_scalar absmax %z, "amax" : f32
  epi.store %z : f32
  epi.yield
}

// Row and column reductions in a 256x128 cooperative tile.
wsgemm.gemm @red_coop_256x128 a(bf16) b(bf16) d(f32)
    config #wsgemm.config<tile = [256, 128, 64], schedule = cooperative> {
^bb0(%acc: f32):
  epi.reduce_to_vec_m sum %acc, "rowsum" : f32
  epi.reduce_to_vec_n min %acc, "colmin" : f32
  epi.store %acc : f32
  epi.yield
}
