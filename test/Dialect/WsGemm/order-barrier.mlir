// RUN: ws-gemm-opt %s | ws-gemm-opt | FileCheck %s
// RUN: ws-gemm-opt %s --mlir-print-op-generic | ws-gemm-opt | FileCheck %s
// RUN: ws-gemm-opt %s --wsgemm-lower-pipelines | FileCheck %s --check-prefix=LOWER

// Ordered sequence barriers: round trip, and their lowering to one
// mbarrier per group.

// CHECK-LABEL: func.func @pingpong_turns
// CHECK: %[[O:.*]] = wsgemm.order_barrier_create in(%{{.*}} : !llvm.ptr<3>) {arrivals = 128} : !wsgemm.order_barrier<2>
// CHECK: wsgemm.warp_specialize
// CHECK: wsgemm.order_wait %{{.*}}, %{{.*}}, %{{.*}} : !wsgemm.order_barrier<2>
// CHECK: wsgemm.order_arrive %{{.*}}, %{{.*}} : !wsgemm.order_barrier<2>

// LOWER-LABEL: func.func @pingpong_turns
// The barriers live at the given storage: a group of 2, both expecting 128
// arrivals, initialized by one thread.
// LOWER: %[[H:.*]] = builtin.unrealized_conversion_cast %{{.*}} : memref<2xi64, #gpu.address_space<workgroup>> to !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 2>
// LOWER: scf.if
// LOWER: nvgpu.mbarrier.init %[[H]][%{{.*}}], %c128
// LOWER: nvgpu.mbarrier.init %[[H]][%{{.*}}], %c128
// LOWER-NEXT: nvvm.fence.mbarrier.init
// The wait: parity (turn + (group == 0)) & 1 on the group's own barrier.
// LOWER: %[[IS0:.*]] = arith.cmpi eq, %[[G:.*]], %c0_i32
// LOWER: %[[EXT:.*]] = arith.extui %[[IS0]] : i1 to i32
// LOWER: %[[SUM:.*]] = arith.addi %[[TURN:.*]], %[[EXT]]
// LOWER: %[[PAR:.*]] = arith.andi %[[SUM]], %c1_i32
// LOWER: %[[SLOT:.*]] = arith.index_castui %[[G]] : i32 to index
// LOWER: %[[P1:.*]] = arith.trunci %[[PAR]] : i32 to i1
// LOWER: nvgpu.mbarrier.try_wait.parity %{{.*}}[%[[SLOT]]], %[[P1]], %c10000000
// The arrival: on the next group's barrier, (group + 1) mod 2.
// LOWER: %[[NX:.*]] = arith.addi %[[G]], %c1_i32
// LOWER: %[[NEXT:.*]] = arith.remui %[[NX]], %c2_i32
// LOWER: %[[NSLOT:.*]] = arith.index_castui %[[NEXT]] : i32 to index
// LOWER: nvgpu.mbarrier.arrive %{{.*}}[%[[NSLOT]]]
// LOWER-NOT: wsgemm.
func.func @pingpong_turns(%bars: !llvm.ptr<3>, %group: i32, %turn: i32) {
  %o = wsgemm.order_barrier_create in(%bars : !llvm.ptr<3>) {arrivals = 128}
      : !wsgemm.order_barrier<2>
  wsgemm.warp_specialize (%o, %group, %turn : !wsgemm.order_barrier<2>, i32, i32)
      roles [mma] warps [8] {
  ^bb0(%ro: !wsgemm.order_barrier<2>, %g: i32, %t: i32):
    wsgemm.order_wait %ro, %g, %t : !wsgemm.order_barrier<2>
    wsgemm.order_arrive %ro, %g : !wsgemm.order_barrier<2>
    wsgemm.role_end
  }
  return
}
