// RUN: ws-gemm-opt %s --wsgemm-lower-pipelines -split-input-file -allow-unregistered-dialect | FileCheck %s

// A TMA pipeline without storage gets a static shared array of 2 x 3
// barriers; a non-TMA pipeline uses the storage it is given.
// CHECK-LABEL: gpu.module @roles
// CHECK: llvm.mlir.global internal @wsgemm_barriers_0() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<6 x i64>
// CHECK-LABEL: llvm.func @kernel(
// CHECK-SAME: %[[STORAGE:.*]]: !llvm.ptr<3>, %[[N:.*]]: i32)
// One thread initializes: full barriers expect 1 arrival, empty barriers
// one per consumer agent.
// CHECK: %[[BASE:.*]] = llvm.mlir.addressof @wsgemm_barriers_0 : !llvm.ptr<3>
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %{{.*}} : i32
// CHECK: scf.if %[[FIRST]] {
// CHECK-COUNT-3: nvvm.mbarrier.init %{{.*}}, %c1_i32{{.*}} : !llvm.ptr<3>, i32
// CHECK: nvvm.fence.mbarrier.init
// CHECK: scf.if
// CHECK: nvvm.mbarrier.init %{{.*}}, %c1_i32
// CHECK: nvvm.fence.mbarrier.init
// The roles split after a CTA barrier: warpgroup 0 (warps 0 and 1) with
// 40 registers, the next two warpgroups with 232.
// CHECK: nvvm.barrier0
// CHECK: %[[WARP:.*]] = arith.divui %{{.*}}, %c32_i32 : i32
// CHECK: %[[WG:.*]] = arith.divui %[[WARP]], %c4_i32 : i32
// CHECK: %[[IS0:.*]] = arith.cmpi eq, %[[WG]], %{{.*}} : i32
// CHECK: scf.if %[[IS0]] {
// CHECK-NEXT: nvvm.setmaxregister  decrease 40
// CHECK: arith.cmpi eq, %[[WARP]], %{{.*}} : i32
// The load role: the state is carried through the loop as three i32.
// CHECK: scf.for %{{.*}} = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[IDX:.*]] = %{{.*}}, %[[PH:.*]] = %{{.*}}, %[[CNT:.*]] = %{{.*}}) -> (i32, i32, i32)  : i32 {
// acquire: wait on empty barrier (index + 3) for the state's phase, then
// arrive on the full barrier announcing the pipeline's 1024 bytes.
// CHECK: %[[EIDX:.*]] = arith.addi %[[IDX]], %c3_i32
// CHECK: %[[EMPTY:.*]] = llvm.getelementptr %[[BASE]][%[[EIDX]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// CHECK: nvvm.mbarrier.try_wait.parity %[[EMPTY]], %[[PH]], %{{.*}} : !llvm.ptr<3>, i32, i32
// CHECK: %[[FULL:.*]] = llvm.getelementptr %[[BASE]][%[[IDX]]] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i64
// CHECK: nvvm.mbarrier.arrive.expect_tx %[[FULL]], %c1024_i32 : !llvm.ptr<3>, i32
// get_barrier is the full barrier; expect_tx adds run-time bytes; commit
// of a TMA pipeline is nothing.
// CHECK: %[[FULL2:.*]] = llvm.getelementptr %[[BASE]][%[[IDX]]]
// CHECK: nvvm.mbarrier.expect_tx %{{.*}}, %[[N]] : !llvm.ptr<3>, i32
// CHECK-NOT: nvvm.mbarrier.arrive
// advance by 1: compare and select, the phase flips on the wrap.
// CHECK: %[[SUM:.*]] = arith.addi %[[IDX]], %c1_i32
// CHECK: %[[WRAP:.*]] = arith.cmpi uge, %[[SUM]], %c3_i32
// CHECK: %[[DOWN:.*]] = arith.subi %[[SUM]], %c3_i32
// CHECK: %[[NIDX:.*]] = arith.select %[[WRAP]], %[[DOWN]], %[[SUM]] : i32
// CHECK: %[[W32:.*]] = arith.extui %[[WRAP]] : i1 to i32
// CHECK: %[[FLIP:.*]] = arith.xori %[[W32]], %c0_i32
// CHECK: %[[NPH:.*]] = arith.xori %[[PH]], %[[FLIP]] : i32
// CHECK: %[[NCNT:.*]] = arith.addi %[[CNT]], %c1_i32
// CHECK: scf.yield %[[NIDX]], %[[NPH]], %[[NCNT]] : i32, i32, i32
// The epilogue_load role: a non-TMA producer arrives in commit.
// CHECK: arith.cmpi eq, %[[WARP]], %c1_i32
// CHECK: nvvm.mbarrier.try_wait.parity
// CHECK-NOT: expect_tx
// CHECK: nvvm.mbarrier.arrive %{{.*}} : !llvm.ptr<3>
// The mma role.
// CHECK: } else {
// CHECK: scf.if
// CHECK-NEXT: nvvm.setmaxregister  increase 232
// advance_by a run-time amount divides.
// CHECK: %[[RSUM:.*]] = arith.addi %{{.*}}, %[[N]] : i32
// CHECK: %[[RIDX:.*]] = arith.remui %[[RSUM]], %c3_i32
// CHECK: arith.divui %[[RSUM]], %c3_i32
// CHECK: %[[RFULL:.*]] = llvm.getelementptr %[[BASE]][%[[RIDX]]]
// CHECK: nvvm.mbarrier.try_wait.parity %[[RFULL]]
// CHECK: %[[REIDX:.*]] = arith.addi %[[RIDX]], %c3_i32
// CHECK: %[[REMPTY:.*]] = llvm.getelementptr %[[BASE]][%[[REIDX]]]
// CHECK: nvvm.mbarrier.arrive %[[REMPTY]]
// The accessors.
// CHECK: arith.index_castui %[[RIDX]] : i32 to index
// CHECK: arith.trunci %{{.*}} : i32 to i1
// The given storage holds the second pipeline's barriers.
// CHECK: llvm.getelementptr %[[STORAGE]]
// CHECK: nvvm.mbarrier.try_wait.parity
// The TMA store pipeline: wait_group.read stages - 1, commit, a chosen
// count, and a full wait at the end.
// CHECK: nvvm.cp.async.bulk.wait_group 1 {read}
// CHECK: nvvm.cp.async.bulk.commit.group
// CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK: nvvm.cp.async.bulk.wait_group 0
// CHECK-NOT: wsgemm.
gpu.module @roles {
  llvm.func @kernel(%storage: !llvm.ptr<3>, %n: i32) {
    %p = wsgemm.pipeline_create {tx_bytes = 1024, consumer_arrivals = 2}
        : !wsgemm.pipeline<3, load -> mma>
    %q = wsgemm.pipeline_create in(%storage : !llvm.ptr<3>)
        {tx_bytes = 0, consumer_arrivals = 1}
        : !wsgemm.pipeline<2, epilogue_load -> mma>
    %sp = wsgemm.store_pipeline_create : !wsgemm.store_pipeline<2>
    wsgemm.warp_specialize(%p, %q, %sp, %n : !wsgemm.pipeline<3, load -> mma>,
        !wsgemm.pipeline<2, epilogue_load -> mma>, !wsgemm.store_pipeline<2>, i32)
        roles [load, epilogue_load, mma] warps [1, 1, 8] regs [40, 40, 232] {
    ^bb0(%lp: !wsgemm.pipeline<3, load -> mma>,
         %lq: !wsgemm.pipeline<2, epilogue_load -> mma>,
         %lsp: !wsgemm.store_pipeline<2>, %ln: i32):
      %s0 = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<3>
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %end = scf.for %i = %c0 to %ln step %c1 iter_args(%s = %s0)
          -> (!wsgemm.pipeline_state<3>) : i32 {
        wsgemm.producer_acquire %lp, %s
            : !wsgemm.pipeline<3, load -> mma>, !wsgemm.pipeline_state<3>
        %bar = wsgemm.producer_get_barrier %lp, %s
            : !wsgemm.pipeline<3, load -> mma>, !wsgemm.pipeline_state<3>
        wsgemm.producer_expect_tx %lp, %s, %ln
            : !wsgemm.pipeline<3, load -> mma>, !wsgemm.pipeline_state<3>
        wsgemm.producer_commit %lp, %s
            : !wsgemm.pipeline<3, load -> mma>, !wsgemm.pipeline_state<3>
        %s1 = wsgemm.pipeline_state_advance %s : !wsgemm.pipeline_state<3>
        scf.yield %s1 : !wsgemm.pipeline_state<3>
      }
      wsgemm.role_end
    } {
    ^bb0(%lp: !wsgemm.pipeline<3, load -> mma>,
         %lq: !wsgemm.pipeline<2, epilogue_load -> mma>,
         %lsp: !wsgemm.store_pipeline<2>, %ln: i32):
      %s0 = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<2>
      wsgemm.producer_acquire %lq, %s0
          : !wsgemm.pipeline<2, epilogue_load -> mma>, !wsgemm.pipeline_state<2>
      wsgemm.producer_commit %lq, %s0
          : !wsgemm.pipeline<2, epilogue_load -> mma>, !wsgemm.pipeline_state<2>
      wsgemm.role_end
    } {
    ^bb0(%cp: !wsgemm.pipeline<3, load -> mma>,
         %cq: !wsgemm.pipeline<2, epilogue_load -> mma>,
         %csp: !wsgemm.store_pipeline<2>, %cn: i32):
      %r0 = wsgemm.pipeline_state_init consumer : !wsgemm.pipeline_state<3>
      %r = wsgemm.pipeline_state_advance_by %r0, %cn : !wsgemm.pipeline_state<3>
      wsgemm.consumer_wait %cp, %r
          : !wsgemm.pipeline<3, load -> mma>, !wsgemm.pipeline_state<3>
      wsgemm.consumer_release %cp, %r
          : !wsgemm.pipeline<3, load -> mma>, !wsgemm.pipeline_state<3>
      %i = wsgemm.pipeline_state_index %r : !wsgemm.pipeline_state<3>
      %ph = wsgemm.pipeline_state_phase %r : !wsgemm.pipeline_state<3>
      "test.keep"(%i, %ph) : (index, i1) -> ()
      %q0 = wsgemm.pipeline_state_init consumer : !wsgemm.pipeline_state<2>
      wsgemm.consumer_wait %cq, %q0
          : !wsgemm.pipeline<2, epilogue_load -> mma>, !wsgemm.pipeline_state<2>
      wsgemm.store_acquire %csp : !wsgemm.store_pipeline<2>
      wsgemm.store_commit %csp : !wsgemm.store_pipeline<2>
      wsgemm.store_wait %csp {pending = 0} : !wsgemm.store_pipeline<2>
      wsgemm.store_tail %csp : !wsgemm.store_pipeline<2>
      wsgemm.role_end
    }
    llvm.return
  }
}

// -----

// Only an mma role: no warpgroup-0 branch, no register budgets.
// CHECK-LABEL: llvm.func @mma_only(
// CHECK: nvvm.barrier0
// CHECK-NOT: setmaxregister
// CHECK: %[[WG:.*]] = arith.divui %{{.*}}, %c4_i32 : i32
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[WG]], %c1_i32 : i32
// CHECK: scf.if %[[IN]] {
// CHECK: nvvm.cp.async.bulk.commit.group
gpu.module @mma_only_module {
  llvm.func @mma_only() {
    %sp = wsgemm.store_pipeline_create : !wsgemm.store_pipeline<1>
    wsgemm.warp_specialize(%sp : !wsgemm.store_pipeline<1>)
        roles [mma] warps [4] {
    ^bb0(%csp: !wsgemm.store_pipeline<1>):
      wsgemm.store_commit %csp : !wsgemm.store_pipeline<1>
      wsgemm.role_end
    }
    llvm.return
  }
}
