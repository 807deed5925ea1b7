// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=ptx --chip=sm_80
// RUN: FileCheck %s --input-file=%t/s80_ms256_whole.ptx
// RUN: FileCheck %s --check-prefix=F32 --input-file=%t/s80_ms_f32_whole.ptx
// RUN: grep -c "st.global.b16" %t/s80_ms256_whole.ptx | FileCheck %s --check-prefix=ELEMS

// Direct stores (EpilogueDirectStore.cpp): a subtile wholly inside M x N
// with 16-byte rows is copied out straight-line: each thread's ld.shared.v4
// of its pieces (across the rectangles of the columns of warps) first, then
// their st.global.v4, with no branch between; edge subtiles keep the
// per-rectangle loops (a load, then its store, per trip).

// 128x256 multistage, four columns of warps, epi N 32 of f16: a subtile is
// four 16 x 32 rectangles, 256 pieces, 2 a thread.
// CHECK: cp.async.wait_group 0;
// CHECK: ld.shared.v4.b32 [[V0:\{[^}]*\}]], [
// CHECK-NOT: {{bra|st.global}}
// CHECK: ld.shared.v4.b32 [[V1:\{[^}]*\}]], [
// CHECK-NOT: {{bra|ld.shared}}
// CHECK: st.global.v4.b32 [{{%rd[0-9]+}}], [[V0]];
// CHECK-NEXT: st.global.v4.b32 [{{%rd[0-9]+}}], [[V1]];
// The edge paths' four rectangles are one rolled loop over them (their
// row loops written once, not four times): 96 2-byte stores in the PTX
// (LLVM unrolls each row loop four times), 384 with a copy per rectangle.
// ELEMS: {{^([0-9]|[1-9][0-9]|1[01][0-9]|12[0-8])$}}
wsgemm.gemm @s80_ms256_whole a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = multistage,
                          warp_columns = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// An f32 D, two columns of warps: 8 pieces a row of 32, two 32-row
// rectangles, 4 pieces a thread.
// F32: cp.async.wait_group 0;
// F32-COUNT-4: ld.shared.v4.b32
// F32-NOT: {{bra|ld.shared}}
// F32-COUNT-4: st.global.v4.b32
wsgemm.gemm @s80_ms_f32_whole a(f16) b(f16) d(f32)
    config #wsgemm.config<schedule = multistage, warp_columns = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
