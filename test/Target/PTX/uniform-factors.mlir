// Uniform factors (--epi-regroup-uniform-factors and the epilogue's
// reductions): with fastmath<reassoc>, fp8's scaled epilogue multiplies each
// element once, by (alpha * scale_a * scale_b) * scale_d, and the amax
// reduces |acc|, multiplying by |alpha * scale_a * scale_b| once per warp
// before the atomic; e4m3 x e4m3 needs no bounds select per element (TMA's
// zero fill makes the accumulator 0 outside M x N). As written: two
// multiplies, and a select per element in subtiles that cross M or N
// (a uniform branch skips them inside). f16 inputs (which may hold an
// infinity) keep the branch, and a sum's factor is applied at the flush.
// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=ptx
// RUN: FileCheck %s --check-prefix=RA --input-file=%t/f8_reassoc.ptx
// RUN: FileCheck %s --check-prefix=AS --input-file=%t/f8_written.ptx
// RUN: FileCheck %s --check-prefix=SUM --input-file=%t/f16_sum.ptx
// 128 elements per thread and tile: one multiply each, 4 uniform ones.
// RUN: grep -c "mul.rn.f32" %t/f8_reassoc.ptx | FileCheck %s --check-prefix=RA-MULS
// RUN: grep -c "mul.rn.f32" %t/f8_written.ptx | FileCheck %s --check-prefix=AS-MULS
// Selects: the two row partials' bounds (once per tile) against one per
// element more.
// RUN: grep -c "selp.f32" %t/f8_reassoc.ptx | FileCheck %s --check-prefix=RA-SELP
// RUN: grep -c "selp.f32" %t/f8_written.ptx | FileCheck %s --check-prefix=AS-SELP
// A subtile inside M x N folds without selects, after a uniform branch.
// RUN: grep -A1 -E "@%%p[0-9]+ bra" %t/f8_written.ptx | grep -B1 "max.NaN.f32" | FileCheck %s --check-prefix=AS-INSIDE
// AS-INSIDE: @{{%p[0-9]+}} bra {{\$L__BB[0-9_]+}};
// AS-INSIDE-NEXT: max.NaN.f32
// e5m2 holds infinities (0 * inf = NaN in the zero fill): the selects stay,
// the multiplies still go.
// RUN: grep -c "selp.f32" %t/f8_e5m2_reassoc.ptx | FileCheck %s --check-prefix=AS-SELP
// RUN: grep -c "mul.rn.f32" %t/f8_e5m2_reassoc.ptx | FileCheck %s --check-prefix=RA-MULS

// RA-LABEL: .entry f8_reassoc(
// RA: abs.f32 [[F:%r[0-9]+]],
// RA: abs.f32
// RA-NEXT: abs.f32
// RA-NEXT: max.NaN.f32
// RA: shfl.sync.bfly.b32 [[X:%r[0-9]+]], {{%r[0-9]+}}, 16, 31, -1;
// RA: max.NaN.f32 [[M:%r[0-9]+]], {{%r[0-9]+}}, [[X]];
// RA-NEXT: mul.rn.f32 [[A:%r[0-9]+]], [[F]], [[M]];
// RA-NEXT: atom.global.max.u32 {{%r[0-9]+}}, [{{%rd[0-9]+}}], [[A]];
// RA-MULS: {{^}}132{{$}}
// RA-SELP: {{^}}2{{$}}

// AS-LABEL: .entry f8_written(
// AS: selp.f32 {{%r[0-9]+}}, {{%r[0-9]+}}, 0f00000000, {{%p[0-9]+}};
// AS: shfl.sync.bfly.b32 [[X:%r[0-9]+]], {{%r[0-9]+}}, 16, 31, -1;
// AS: max.NaN.f32 [[M:%r[0-9]+]], {{%r[0-9]+}}, [[X]];
// AS-NEXT: atom.global.max.u32 {{%r[0-9]+}}, [{{%rd[0-9]+}}], [[M]];
// AS-MULS: {{^}}258{{$}}
// AS-SELP: {{^}}130{{$}}

// SUM-LABEL: .entry f16_sum(
// SUM: selp.f32 {{%r[0-9]+}}, {{%r[0-9]+}}, 0f00000000, {{%p[0-9]+}};
// SUM: shfl.sync.bfly.b32 [[X:%r[0-9]+]], {{%r[0-9]+}}, 2, 31, -1;
// SUM: add.rn.f32 [[S:%r[0-9]+]], {{%r[0-9]+}}, [[X]];
// SUM-NEXT: mul.rn.f32 [[T:%r[0-9]+]], {{%r[0-9]+}}, [[S]];
// SUM-NEXT: atom.global.add.f32 {{%r[0-9]+}}, [{{%rd[0-9]+}}], [[T]];

wsgemm.gemm @f8_reassoc a(f8E4M3FN) b(f8E4M3FN) d(f8E4M3FN)
    config #wsgemm.config<tile = [128, 256, 128], schedule = cooperative> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %sab = epi.scalar ptr ["scale_a", "scale_b"] : f32
  %sd = epi.scalar ptr ["scale_d"] : f32
  %s = arith.mulf %alpha, %sab fastmath<reassoc> : f32
  %z = arith.mulf %s, %acc fastmath<reassoc> : f32
  epi.reduce_to_scalar absmax %z, "amax_d" : f32
  %d = arith.mulf %z, %sd fastmath<reassoc> : f32
  epi.store %d : f32
  epi.yield
}

wsgemm.gemm @f8_e5m2_reassoc a(f8E4M3FN) b(f8E5M2) d(f8E4M3FN)
    config #wsgemm.config<tile = [128, 256, 128], schedule = cooperative> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %sab = epi.scalar ptr ["scale_a", "scale_b"] : f32
  %sd = epi.scalar ptr ["scale_d"] : f32
  %s = arith.mulf %alpha, %sab fastmath<reassoc> : f32
  %z = arith.mulf %s, %acc fastmath<reassoc> : f32
  epi.reduce_to_scalar absmax %z, "amax_d" : f32
  %d = arith.mulf %z, %sd fastmath<reassoc> : f32
  epi.store %d : f32
  epi.yield
}

wsgemm.gemm @f8_written a(f8E4M3FN) b(f8E4M3FN) d(f8E4M3FN)
    config #wsgemm.config<tile = [128, 256, 128], schedule = cooperative> {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %sab = epi.scalar ptr ["scale_a", "scale_b"] : f32
  %sd = epi.scalar ptr ["scale_d"] : f32
  %s = arith.mulf %alpha, %sab : f32
  %z = arith.mulf %s, %acc : f32
  epi.reduce_to_scalar absmax %z, "amax_d" : f32
  %d = arith.mulf %z, %sd : f32
  epi.store %d : f32
  epi.yield
}

wsgemm.gemm @f16_sum a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %z = arith.mulf %alpha, %acc fastmath<reassoc> : f32
  epi.reduce_to_vec_m sum %z, "row_sum" : f32
  epi.store %z : f32
  epi.yield
}
