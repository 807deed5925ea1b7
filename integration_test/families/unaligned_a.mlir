// A GEMM whose activations come M-major (A stored K x M) as a kernel
// family (family-cp-async-dry-run.test): f16 with a bias along N, swept at
// build time (integration_test/CMakeLists.txt) over
//   --tiles 128x256 --schedules cooperative --axis load_a=tma|cp_async
// into <build>/integration_test/kernels/families/unaligned_a/. The runtime
// picks the TMA variant where A's base, ld and batch stride are 16-byte
// aligned and the cp.async one (2-byte copies: any alignment of the
// element) where they are not: an odd M, a sliced base (issue 28).
wsgemm.gemm @unaligned_a a(f16, m_major) b(f16) d(f16) {
^bb0(%acc: f32):
  %bias = epi.load_vec_n "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.store %z : f32
  epi.yield
}
