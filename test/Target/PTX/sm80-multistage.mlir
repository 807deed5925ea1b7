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

// CHECK: .target sm_80
// CHECK: .maxntid 256, 1, 1
// CHECK-DAG: cp.async.cg.shared.global
// CHECK-DAG: cp.async.commit_group
// CHECK-DAG: cp.async.cg.shared.global [%rd{{[0-9]+}}], [%rd{{[0-9]+}}], 16;
// CHECK-DAG: cp.async.cg.shared.global {{\[.*\]}}, {{\[.*\]}}, 16, %r
// CHECK-DAG: cp.async.wait_group 2
// CHECK-DAG: cp.async.wait_group 0
// CHECK-DAG: bar.sync 0, 256
// CHECK-DAG: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK-DAG: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-DAG: st.global.b16
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
