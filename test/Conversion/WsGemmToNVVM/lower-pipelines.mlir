// RUN: ws-gemm-opt %s --wsgemm-lower-pipelines -split-input-file -allow-unregistered-dialect | FileCheck %s
// RUN: ws-gemm-opt %s --wsgemm-lower-pipelines --convert-nvgpu-to-nvvm --convert-scf-to-cf --convert-to-llvm --reconcile-unrealized-casts --canonicalize -split-input-file -allow-unregistered-dialect | FileCheck %s --check-prefix=NVVM


// A pipeline without storage is an nvgpu.mbarrier.create group of 2 x 3
// barriers; a pipeline with storage sees it as a group (its memref
// descriptor, cast).
// CHECK-LABEL: llvm.func @kernel(
// CHECK-SAME: %[[STORAGE:.*]]: !llvm.ptr<3>, %[[N:.*]]: i32, %[[MAP:.*]]: !llvm.ptr, %[[DST:.*]]: !llvm.ptr<3>)
// CHECK: %[[G:.*]] = nvgpu.mbarrier.create -> <memorySpace = #gpu.address_space<workgroup>, num_barriers = 6>
// One thread initializes: full barriers (slots 0..2) expect 1 arrival,
// empty barriers (slots 3..5) one per consumer agent.
// CHECK: %[[TID:.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[TID]], %{{.*}} : i32
// CHECK: scf.if %[[FIRST]] {
// CHECK: nvgpu.mbarrier.init %[[G]][%c0], %c1 :
// CHECK: nvgpu.mbarrier.init %[[G]][%c3], %c2 :
// CHECK: nvgpu.mbarrier.init %[[G]][%{{.*}}], %{{.*}} :
// CHECK: nvgpu.mbarrier.init %[[G]][%c4], %{{.*}} :
// CHECK: nvgpu.mbarrier.init %[[G]][%{{.*}}], %{{.*}} :
// CHECK: nvgpu.mbarrier.init %[[G]][%c5], %{{.*}} :
// CHECK-NEXT: nvvm.fence.mbarrier.init
// CHECK: llvm.insertvalue %[[STORAGE]], %{{.*}}[1] : !llvm.struct<(ptr<3>, ptr<3>, i64, array<1 x i64>, array<1 x i64>)>
// CHECK: %[[SLOTS:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<{{.*}}> to memref<4xi64, #gpu.address_space<workgroup>>
// CHECK: %[[H:.*]] = builtin.unrealized_conversion_cast %[[SLOTS]] : memref<4xi64, #gpu.address_space<workgroup>> to !nvgpu.mbarrier.group<memorySpace = #gpu.address_space<workgroup>, num_barriers = 4>
// CHECK: scf.if
// CHECK-COUNT-4: nvgpu.mbarrier.init %[[H]]
// CHECK-NEXT: nvvm.fence.mbarrier.init
// The roles split after a CTA barrier: warpgroup 0 (warps 0 and 1) with
// 40 registers, the next two warpgroups with 232.
// CHECK: nvvm.barrier0
// CHECK: %[[WARP:.*]] = arith.divui %{{.*}}, %c32_i32 : i32
// CHECK: %[[WG:.*]] = arith.divui %[[WARP]], %c4_i32 : i32
// CHECK: %[[IS0:.*]] = arith.cmpi eq, %[[WG]], %{{.*}} : i32
// CHECK: scf.if %[[IS0]] {
// CHECK-NEXT: nvvm.setmaxregister  decrease 40
// CHECK: arith.cmpi eq, %[[WARP]], %{{.*}} : i32
// CHECK: %[[DESC:.*]] = builtin.unrealized_conversion_cast %[[MAP]] : !llvm.ptr to !nvgpu.tensormap.descriptor
// The load role: the state is carried through the loop as three i32.
// CHECK: scf.for %[[I:.*]] = %{{.*}} to %[[N]] step %{{.*}} iter_args(%[[IDX:.*]] = %{{.*}}, %[[PH:.*]] = %{{.*}}, %[[CNT:.*]] = %{{.*}}) -> (i32, i32, i32)  : i32 {
// acquire: wait on the empty barrier (slot index + 3) for the state's
// phase, then arrive on the full barrier announcing the pipeline's 1024
// bytes.
// CHECK: %[[EIDX:.*]] = arith.addi %[[IDX]], %c3_i32
// CHECK: %[[ESLOT:.*]] = arith.index_castui %[[EIDX]] : i32 to index
// CHECK: %[[PARITY:.*]] = arith.trunci %[[PH]] : i32 to i1
// CHECK: nvgpu.mbarrier.try_wait.parity %[[G]][%[[ESLOT]]], %[[PARITY]], %c10000000 :
// CHECK: %[[FSLOT:.*]] = arith.index_castui %[[IDX]] : i32 to index
// CHECK: nvgpu.mbarrier.arrive.expect_tx %[[G]][%[[FSLOT]]], %c1024 :
// The TMA load: the destination seen as a memref of the descriptor's box,
// completing on the full barrier.
// CHECK: llvm.insertvalue %[[DST]], %{{.*}}[1] : !llvm.struct<(ptr<3>, ptr<3>, i64, array<2 x i64>, array<2 x i64>)>
// CHECK: %[[BUF:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<{{.*}}> to memref<64x64xf16, #gpu.address_space<workgroup>>
// CHECK: %[[X:.*]] = arith.index_cast %[[I]] : i32 to index
// CHECK: %[[Y:.*]] = arith.index_cast %[[N]] : i32 to index
// CHECK: %[[TSLOT:.*]] = arith.index_castui %[[IDX]] : i32 to index
// CHECK: nvgpu.tma.async.load %[[DESC]][%[[X]], %[[Y]]], %[[G]][%[[TSLOT]]] to %[[BUF]]
// get_barrier is the full barrier's address; expect_tx adds run-time
// bytes on it; commit of a TMA pipeline is nothing.
// CHECK: %[[ADDR:.*]] = nvgpu.mbarrier.get %[[G]][%{{.*}}] : {{.*}} -> i64
// CHECK: %[[BAR:.*]] = llvm.inttoptr %[[ADDR]] : i64 to !llvm.ptr<3>
// CHECK: "test.keep"(%[[BAR]])
// CHECK: nvgpu.mbarrier.get
// CHECK: nvvm.mbarrier.expect_tx %{{.*}}, %[[N]] : !llvm.ptr<3>, i32
// CHECK-NOT: nvgpu.mbarrier.arrive
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
// CHECK: nvgpu.mbarrier.try_wait.parity %[[H]]
// CHECK-NOT: expect_tx
// CHECK: nvgpu.mbarrier.arrive %[[H]][%{{.*}}] : {{.*}} -> !nvgpu.mbarrier.token
// The mma role.
// CHECK: } else {
// CHECK: scf.if
// CHECK-NEXT: nvvm.setmaxregister  increase 232
// advance_by a run-time amount divides.
// CHECK: %[[RSUM:.*]] = arith.addi %{{.*}}, %[[N]] : i32
// CHECK: %[[RIDX:.*]] = arith.remui %[[RSUM]], %c3_i32
// CHECK: arith.divui %[[RSUM]], %c3_i32
// CHECK: %[[RFULL:.*]] = arith.index_castui %[[RIDX]] : i32 to index
// CHECK: nvgpu.mbarrier.try_wait.parity %[[G]][%[[RFULL]]]
// CHECK: %[[REIDX:.*]] = arith.addi %[[RIDX]], %c3_i32
// CHECK: %[[REMPTY:.*]] = arith.index_castui %[[REIDX]] : i32 to index
// CHECK: nvgpu.mbarrier.arrive %[[G]][%[[REMPTY]]]
// A predicated release: the same barrier, arrived on under a PTX predicate
// (no branch).
// CHECK: %[[PADDR:.*]] = nvgpu.mbarrier.get %[[G]][%{{.*}}]
// CHECK: %[[PRED:.*]] = llvm.zext %{{.*}} : i1 to i32
// CHECK: llvm.inline_asm has_side_effects "{ .reg .pred p; setp.ne.b32 p, $1, 0; @p mbarrier.arrive.shared::cta.b64 _, [$0]; }", "l,r,~{memory}" %[[PADDR]], %[[PRED]]
// CHECK-NOT: scf.if
// The accessors.
// CHECK: arith.index_castui %[[RIDX]] : i32 to index
// CHECK: arith.trunci %{{.*}} : i32 to i1
// The second pipeline waits on its own group.
// CHECK: nvgpu.mbarrier.try_wait.parity %[[H]]
// The TMA store pipeline: wait_group.read stages - 1, commit, a chosen
// count, and a full wait at the end.
// CHECK: nvvm.cp.async.bulk.wait_group 1 {read}
// CHECK: %[[SBUF:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.struct<{{.*}}> to memref<64x64xf16, #gpu.address_space<workgroup>>
// CHECK: nvgpu.tma.async.store %[[SBUF]] to %{{.*}}[%{{.*}}, %{{.*}}] : memref<64x64xf16, #gpu.address_space<workgroup>> -> <tensor = memref<64x64xf16
// CHECK-NEXT: nvvm.cp.async.bulk.commit.group
// CHECK: nvvm.cp.async.bulk.wait_group 0 {read}
// CHECK: nvvm.cp.async.bulk.wait_group 0
// CHECK-NOT: wsgemm.

// Through nvgpu's lowering the casts cancel (no nvgpu type is left): the
// TMA destination is %dst, the descriptor the parameter.
// NVVM-LABEL: llvm.func @kernel(
// NVVM-SAME: %[[STORAGE:.*]]: !llvm.ptr<3>, %{{.*}}: i32, %[[MAP:.*]]: !llvm.ptr, %[[DST:.*]]: !llvm.ptr<3>)
// NVVM: nvvm.mbarrier.init
// NVVM: nvvm.mbarrier.init %[[STORAGE]], %{{.*}} : !llvm.ptr<3>, i32
// NVVM: %[[E:.*]] = llvm.getelementptr %[[STORAGE]][2] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i64
// NVVM: nvvm.mbarrier.init %[[E]]
// NVVM: mbarrier.try_wait.parity.shared.b64
// NVVM: nvvm.mbarrier.arrive.expect_tx
// NVVM: %[[DSTC:.*]] = llvm.addrspacecast %[[DST]] : !llvm.ptr<3> to !llvm.ptr<7>
// NVVM: nvvm.cp.async.bulk.tensor.shared.cluster.global %[[DSTC]], %[[MAP]], %{{.*}}, box[%{{.*}}, %{{.*}}] : !llvm.ptr<7>, !llvm.ptr
// NVVM: nvvm.mbarrier.expect_tx
// NVVM: nvvm.cp.async.bulk.tensor.global.shared.cta %[[MAP]], %[[DST]], box[%{{.*}}, %{{.*}}] : !llvm.ptr, <3>
// NVVM-NOT: nvgpu
// NVVM-NOT: wsgemm.

!desc = !nvgpu.tensormap.descriptor<tensor = memref<64x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = l2promo_128b, oob = zero, interleave = none>

gpu.module @roles {
  llvm.func @kernel(%storage: !llvm.ptr<3>, %n: i32, %map: !llvm.ptr,
                    %dst: !llvm.ptr<3>) {
    %p = wsgemm.pipeline_create {tx_bytes = 1024, consumer_arrivals = 2}
        : !wsgemm.pipeline<3, load -> mma>
    %q = wsgemm.pipeline_create in(%storage : !llvm.ptr<3>)
        {tx_bytes = 0, consumer_arrivals = 1}
        : !wsgemm.pipeline<2, epilogue_load -> mma>
    %sp = wsgemm.store_pipeline_create : !wsgemm.store_pipeline<2>
    wsgemm.warp_specialize(%p, %q, %sp, %n, %map, %dst
        : !wsgemm.pipeline<3, load -> mma>,
          !wsgemm.pipeline<2, epilogue_load -> mma>, !wsgemm.store_pipeline<2>,
          i32, !llvm.ptr, !llvm.ptr<3>)
        roles [load, epilogue_load, mma] warps [1, 1, 8] regs [40, 40, 232] {
    ^bb0(%lp: !wsgemm.pipeline<3, load -> mma>,
         %lq: !wsgemm.pipeline<2, epilogue_load -> mma>,
         %lsp: !wsgemm.store_pipeline<2>, %ln: i32, %lmap: !llvm.ptr,
         %ldst: !llvm.ptr<3>):
      %desc = builtin.unrealized_conversion_cast %lmap : !llvm.ptr to !desc
      %s0 = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<3>
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %end = scf.for %i = %c0 to %ln step %c1 iter_args(%s = %s0)
          -> (!wsgemm.pipeline_state<3>) : i32 {
        wsgemm.producer_acquire %lp, %s
            : !wsgemm.pipeline<3, load -> mma>, !wsgemm.pipeline_state<3>
        wsgemm.producer_tma_load %desc[%i, %ln] to %ldst, %lp[%s]
            : !desc, !wsgemm.pipeline<3, load -> mma>, !wsgemm.pipeline_state<3>
        %bar = wsgemm.producer_get_barrier %lp, %s
            : !wsgemm.pipeline<3, load -> mma>, !wsgemm.pipeline_state<3>
        "test.keep"(%bar) : (!llvm.ptr<3>) -> ()
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
         %lsp: !wsgemm.store_pipeline<2>, %ln: i32, %lmap: !llvm.ptr,
         %ldst: !llvm.ptr<3>):
      %s0 = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<2>
      wsgemm.producer_acquire %lq, %s0
          : !wsgemm.pipeline<2, epilogue_load -> mma>, !wsgemm.pipeline_state<2>
      wsgemm.producer_commit %lq, %s0
          : !wsgemm.pipeline<2, epilogue_load -> mma>, !wsgemm.pipeline_state<2>
      wsgemm.role_end
    } {
    ^bb0(%cp: !wsgemm.pipeline<3, load -> mma>,
         %cq: !wsgemm.pipeline<2, epilogue_load -> mma>,
         %csp: !wsgemm.store_pipeline<2>, %cn: i32, %cmap: !llvm.ptr,
         %cdst: !llvm.ptr<3>):
      %r0 = wsgemm.pipeline_state_init consumer : !wsgemm.pipeline_state<3>
      %r = wsgemm.pipeline_state_advance_by %r0, %cn : !wsgemm.pipeline_state<3>
      wsgemm.consumer_wait %cp, %r
          : !wsgemm.pipeline<3, load -> mma>, !wsgemm.pipeline_state<3>
      wsgemm.consumer_release %cp, %r
          : !wsgemm.pipeline<3, load -> mma>, !wsgemm.pipeline_state<3>
      %c0i = arith.constant 0 : i32
      %first = arith.cmpi eq, %cn, %c0i : i32
      wsgemm.consumer_release %cp, %r if %first
          : !wsgemm.pipeline<3, load -> mma>, !wsgemm.pipeline_state<3>
      %i = wsgemm.pipeline_state_index %r : !wsgemm.pipeline_state<3>
      %ph = wsgemm.pipeline_state_phase %r : !wsgemm.pipeline_state<3>
      "test.keep"(%i, %ph) : (index, i1) -> ()
      %q0 = wsgemm.pipeline_state_init consumer : !wsgemm.pipeline_state<2>
      wsgemm.consumer_wait %cq, %q0
          : !wsgemm.pipeline<2, epilogue_load -> mma>, !wsgemm.pipeline_state<2>
      wsgemm.store_acquire %csp : !wsgemm.store_pipeline<2>
      %cdesc = builtin.unrealized_conversion_cast %cmap : !llvm.ptr to !desc
      wsgemm.store_tma %cdst to %cdesc[%cn, %cn] in %csp : !desc, !wsgemm.store_pipeline<2>
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
