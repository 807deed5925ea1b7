// RUN: ws-gemm-opt %s --wsgemm-plan=chip=sm_80 --wsgemm-emit-manifest --wsgemm-specialize | FileCheck %s

// copy_out = load (sm_8x; the planner's pick for a static K up to 1024,
// PlanningChip.cpp): the consumers
// stage each of a tile's 8 subtiles in its own store-ring slot and hand it
// over on a pipeline of their own (mma -> load: each slot's full barrier
// counts the 128 consumer threads' arrivals, its empty barrier the 128 load
// threads'); the load warps copy a tile out with st.global after issuing
// the next tile's k-tiles, and the last tile's after the tile loop.

// CHECK: wsgemm.pipeline_create {{.*}} {tx_bytes = 0, consumer_arrivals = 128, producer_arrivals = 128} : !wsgemm.pipeline<4, load -> mma>
// CHECK: %[[COPY:.*]] = wsgemm.pipeline_create {{.*}} {tx_bytes = 0, consumer_arrivals = 128, producer_arrivals = 128} : !wsgemm.pipeline<8, mma -> load>
// CHECK: wsgemm.store_pipeline_create : !wsgemm.store_pipeline<8>
// CHECK: wsgemm.warp_specialize({{.*}}, %[[COPY]], %{{.*}} :
// CHECK-SAME: roles [load, mma] warps [4, 4]
// The load role's tile loop carries the previous tile (whether there is
// one, its M, N and batch origin) and the copy-out pipeline's use count.
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}, %[[PENDING:.*]] = %false, %{{.*}} = %c0_i32, %{{.*}} = %c0_i32, %{{.*}} = %c0_i32, %{{.*}} = %c0_i32) -> (!wsgemm.pipeline_state<4>, i1, i32, i32, i32, i32)
// CHECK: scf.for
// CHECK: wsgemm.producer_acquire %{{.*}} cp_async : !wsgemm.pipeline<4, load -> mma>
// CHECK: wsgemm.producer_commit %{{.*}} cp_async : !wsgemm.pipeline<4, load -> mma>
// The copy-out: a loop over the tile's 8 subtiles, each waited for, read
// 16 bytes at a time from shared memory, stored, and released.
// CHECK: scf.if %[[PENDING]] {
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %c8_i32
// CHECK: wsgemm.consumer_wait %{{.*}} : !wsgemm.pipeline<8, mma -> load>
// CHECK: llvm.load %{{.*}} : !llvm.ptr<3> -> vector<4xi32>
// CHECK: llvm.store %{{.*}} : vector<4xi32>, !llvm.ptr<1>
// CHECK: wsgemm.consumer_release %{{.*}} : !wsgemm.pipeline<8, mma -> load>
// CHECK-NOT: wsgemm.consumer_release
// CHECK: scf.yield
// After the tile loop, the last tile.
// CHECK: scf.if
// CHECK: scf.for
// CHECK: wsgemm.consumer_wait %{{.*}} : !wsgemm.pipeline<8, mma -> load>
// CHECK: wsgemm.consumer_release %{{.*}} : !wsgemm.pipeline<8, mma -> load>
// CHECK-NOT: wsgemm.consumer_release
// CHECK: wsgemm.role_end
// The consumers: per subtile, wait for the slot, stage it, arrive; no
// global store of their own.
// CHECK-NOT: !llvm.ptr<1>
// CHECK: wsgemm.producer_acquire %{{.*}} : !wsgemm.pipeline<8, mma -> load>
// CHECK-NOT: !llvm.ptr<1>
// CHECK: llvm.store %{{.*}} : {{.*}}, !llvm.ptr<3>
// CHECK-NOT: !llvm.ptr<1>
// CHECK: wsgemm.producer_commit %{{.*}} : !wsgemm.pipeline<8, mma -> load>
// CHECK-NOT: !llvm.ptr<1>
// CHECK: wsgemm.role_end
wsgemm.gemm @s80_plain a(f16) b(f16) d(f16)
    config #wsgemm.config<copy_out = load> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
