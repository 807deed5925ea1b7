// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=ptx --chip=sm_80
// RUN: FileCheck %s --input-file=%t/s80_ms.ptx
// RUN: FileCheck %s --check-prefix=NEG --input-file=%t/s80_ms.ptx
// RUN: FileCheck %s --check-prefix=MANIFEST --input-file=%t/s80_ms.json
// RUN: ws-gemm-opt %s --wsgemm-plan=chip=sm_80 | FileCheck %s --check-prefix=PLAN

// schedule = multistage on sm_80 (issue 28): no producer warps and no
// mbarriers. All 256 threads copy with cp.async, one commit_group per
// k-tile, wait with cp.async.wait_group (stages - 2 = 2 in the loop, 0
// after it) and bar.sync 0 over the 256 threads, then ldmatrix.x4 and
// mma.sync; the epilogue is the warp-specialized kernels' (st.global).
// The loop is pipelined as CUTLASS's MmaMultistage (MainloopSm80.cpp): one
// straight-line block in which each k-step's mma.sync is followed by its
// share of a later k-tile's copies (branch-free: the src-size register
// zero-fills pieces past M, N or K), the group committed before the last
// k-step, whose wait and bar.sync come before the next stage's fragments.

// CHECK: .target sm_80
// CHECK: .maxntid 256, 1, 1
// CHECK: cp.async.cg.shared.global
// CHECK: cp.async.commit_group;
// CHECK: cp.async.wait_group 2;
// CHECK-NEXT: bar.sync 0, 256;
// CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK: [[LOOP:\$L__BB0_[0-9]+]]:
// CHECK-NOT: bra
// CHECK: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-NOT: bra
// CHECK: cp.async.cg.shared.global {{\[.*\]}}, {{\[.*\]}}, 16, %r
// CHECK-NOT: bra
// CHECK: mma.sync.aligned.m16n8k16
// CHECK-NOT: bra
// CHECK: cp.async.commit_group;
// CHECK-NEXT: cp.async.wait_group 2;
// CHECK-NEXT: bar.sync 0, 256;
// CHECK-NOT: bra
// CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-NOT: bra
// CHECK: mma.sync.aligned.m16n8k16
// CHECK-NOT: bra {{.*}};
// CHECK: bra {{.*}}[[LOOP]];
// CHECK-NEXT: $L__BB0_{{[0-9]+}}:
// CHECK-NEXT: cp.async.wait_group 0;
// CHECK-NEXT: bar.sync 0, 256;
// CHECK: st.global.b16
// No copy without a src-size (the in-order loop's straight-line copies).
// NEG-NOT: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// NEG-NOT: mbarrier
// NEG-NOT: wgmma
// NEG-NOT: cp.async.bulk
// NEG-NOT: setmaxnreg
// NEG-NOT: elect.sync
// MANIFEST: "block": [
// MANIFEST-NEXT: 256,
// MANIFEST: "schedule": "multistage"
// PLAN: stages = 4, schedule = multistage
wsgemm.gemm @s80_ms a(f16) b(f16) d(f16)
    config #wsgemm.config<schedule = multistage> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
