// A GEMM that adds a residual C as a kernel family (family-cp-async-c-
// dry-run.test): f16, D = acc + C, swept at build time
// (integration_test/CMakeLists.txt) over
//   --tiles 128x256 --schedules cooperative --axis load_c=tma|cp_async
//   --axis store=tma|direct
// into <build>/integration_test/kernels/families/residual_c/. The runtime
// picks TMA loads and stores where C's and D's rows allow them, the copied
// C (2-byte copies: any alignment of the element) where C's do not (an
// odd N, a sliced C), and direct stores where D's do not (issue 28).
wsgemm.gemm @residual_c a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %z = arith.addf %acc, %c : f32
  epi.store %z : f32
  epi.yield
}
