// Scalar leaves: by-value parameters, device pointers, products of several
// of either, and compile-time attributes. scalars.test runs them.

// One by-value parameter and a product of two.
wsgemm.gemm @sc_param a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %ab = epi.scalar param ["s0", "s1"] : f32
  %x = arith.mulf %alpha, %acc : f32
  %r = arith.mulf %x, %ab : f32
  epi.store %r : f32
  epi.yield
}

// One device scalar.
wsgemm.gemm @sc_ptr a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  %s = epi.scalar ptr ["scale"] : f32
  %r = arith.mulf %s, %acc : f32
  epi.store %r : f32
  epi.yield
}

// Product of device scalars (fp8-style scale_a * scale_b), f32 D.
wsgemm.gemm @sc_ptr_product a(f16) b(f16, n_major) d(f32) {
^bb0(%acc: f32):
  %s = epi.scalar ptr ["scale_a", "scale_b"] : f32
  %r = arith.mulf %s, %acc : f32
  epi.store %r : f32
  epi.yield
}

// Compile-time scalars: epi.scalar attr and arith.constant.
wsgemm.gemm @sc_attr a(bf16) b(bf16) d(f16) {
^bb0(%acc: f32):
  %k = epi.scalar attr 0.5 : f32
  %b = arith.constant 0.25 : f32
  %x = arith.mulf %k, %acc : f32
  %r = arith.addf %x, %b : f32
  epi.store %r : f32
  epi.yield
}

// All three sources in one epilogue, with C.
wsgemm.gemm @sc_mixed a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar ptr ["beta"] : f32
  %k = epi.scalar attr 2.0 : f32
  %c = epi.load_src : f32
  %x = arith.mulf %alpha, %acc : f32
  %y = arith.mulf %beta, %c : f32
  %z = arith.addf %x, %y : f32
  %r = arith.divf %z, %k : f32
  epi.store %r : f32
  epi.yield
}
