// RUN: ws-gemm-opt %s | ws-gemm-opt | FileCheck %s
// RUN: ws-gemm-opt %s --mlir-print-op-generic | ws-gemm-opt | FileCheck %s
// RUN: ws-gemm-opt %s --wsgemm-lower-pipelines | FileCheck %s --check-prefix=LOWER

// Round trip of every type, attribute and op of the explicit level.

// CHECK-LABEL: func.func @types
// CHECK-SAME: !wsgemm.pipeline<4, load -> mma>
// CHECK-SAME: !wsgemm.pipeline<1, epilogue_load -> mma>
// CHECK-SAME: !wsgemm.pipeline<3, mma -> epilogue_load>
// CHECK-SAME: !wsgemm.store_pipeline<2>
// CHECK-SAME: !wsgemm.pipeline_state<7>
func.func @types(%a: !wsgemm.pipeline<4, load -> mma>,
                 %b: !wsgemm.pipeline<1, epilogue_load -> mma>,
                 %c: !wsgemm.pipeline<3, mma -> epilogue_load>,
                 %d: !wsgemm.store_pipeline<2>,
                 %e: !wsgemm.pipeline_state<7>) {
  return
}

// CHECK-LABEL: func.func @attrs
// CHECK-SAME: a = #wsgemm.pipeline_agent<consumer>
// CHECK-SAME: r = [#wsgemm.role<load>, #wsgemm.role<epilogue_load>, #wsgemm.role<mma>]
func.func @attrs() attributes {
    r = [#wsgemm.role<load>, #wsgemm.role<epilogue_load>, #wsgemm.role<mma>],
    a = #wsgemm.pipeline_agent<consumer>} {
  return
}

// CHECK-LABEL: func.func @create
// CHECK: wsgemm.pipeline_create {tx_bytes = 32768, consumer_arrivals = 2} : !wsgemm.pipeline<4, load -> mma>
// CHECK: wsgemm.pipeline_create {tx_bytes = 0, consumer_arrivals = 1} {note = "non-TMA"} : !wsgemm.pipeline<2, epilogue_load -> mma>
// CHECK: wsgemm.store_pipeline_create : !wsgemm.store_pipeline<2>
func.func @create() {
  %p = wsgemm.pipeline_create {tx_bytes = 32768, consumer_arrivals = 2}
      : !wsgemm.pipeline<4, load -> mma>
  %q = wsgemm.pipeline_create {tx_bytes = 0, consumer_arrivals = 1}
      {note = "non-TMA"} : !wsgemm.pipeline<2, epilogue_load -> mma>
  %sp = wsgemm.store_pipeline_create : !wsgemm.store_pipeline<2>
  return
}

// CHECK-LABEL: func.func @state
// CHECK: %[[P:.+]] = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<4>
// CHECK: %[[C:.+]] = wsgemm.pipeline_state_init consumer : !wsgemm.pipeline_state<4>
// CHECK: %[[A1:.+]] = wsgemm.pipeline_state_advance %[[P]] : !wsgemm.pipeline_state<4>
// CHECK: %[[A2:.+]] = wsgemm.pipeline_state_advance %[[C]] by 9 : !wsgemm.pipeline_state<4>
// CHECK: wsgemm.pipeline_state_index %[[A1]] : !wsgemm.pipeline_state<4>
// CHECK: wsgemm.pipeline_state_phase %[[A2]] : !wsgemm.pipeline_state<4>
// CHECK: wsgemm.pipeline_state_count %[[A2]] : !wsgemm.pipeline_state<4>
func.func @state() -> (index, i1, index) {
  %p = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<4>
  %c = wsgemm.pipeline_state_init consumer : !wsgemm.pipeline_state<4>
  // An explicit `by 1` is the default and is not printed.
  %a1 = wsgemm.pipeline_state_advance %p by 1 : !wsgemm.pipeline_state<4>
  %a2 = wsgemm.pipeline_state_advance %c by 9 : !wsgemm.pipeline_state<4>
  %i = wsgemm.pipeline_state_index %a1 : !wsgemm.pipeline_state<4>
  %ph = wsgemm.pipeline_state_phase %a2 : !wsgemm.pipeline_state<4>
  %n = wsgemm.pipeline_state_count %a2 : !wsgemm.pipeline_state<4>
  return %i, %ph, %n : index, i1, index
}

// Minimal warp_specialize: no captures, no register budgets, an implicit
// terminator in the input.
// CHECK-LABEL: func.func @minimal
// CHECK: wsgemm.warp_specialize() roles [mma] warps [4] {
// CHECK-NEXT: wsgemm.role_end
// CHECK-NEXT: }
func.func @minimal() {
  wsgemm.warp_specialize () roles [mma] warps [4] {
  }
  return
}

// A complete kernel body: mainloop pipeline (load -> mma), C pipeline
// (epilogue_load -> mma) and the TMA store pipeline, with the loops
// --wsgemm-specialize produces.
// CHECK-LABEL: func.func @kernel
// CHECK: %[[AB:.+]] = wsgemm.pipeline_create {tx_bytes = 32768, consumer_arrivals = 2} : !wsgemm.pipeline<4, load -> mma>
// CHECK: %[[CP:.+]] = wsgemm.pipeline_create {tx_bytes = 16384, consumer_arrivals = 2} : !wsgemm.pipeline<2, epilogue_load -> mma>
// CHECK: %[[SP:.+]] = wsgemm.store_pipeline_create : !wsgemm.store_pipeline<2>
// CHECK: wsgemm.warp_specialize(%[[AB]], %[[CP]], %[[SP]], %{{.+}}, %{{.+}}, %{{.+}} : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline<2, epilogue_load -> mma>, !wsgemm.store_pipeline<2>, index, index, i1) roles [load, epilogue_load, mma] warps [1, 1, 8] regs [40, 40, 232] attributes {kernel_tag = "gemm0"} {
// CHECK-NEXT: ^bb0(%[[LP:.+]]: !wsgemm.pipeline<4, load -> mma>, %{{.+}}: !wsgemm.pipeline<2, epilogue_load -> mma>, %{{.+}}: !wsgemm.store_pipeline<2>, %[[LK:.+]]: index, %{{.+}}: index, %{{.+}}: i1):
// CHECK: %[[W0:.+]] = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<4>
// CHECK: scf.for {{.+}} iter_args(%[[W:.+]] = %[[W0]]) -> (!wsgemm.pipeline_state<4>)
// CHECK-NEXT: wsgemm.producer_acquire %[[LP]], %[[W]] : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
// CHECK-NEXT: wsgemm.producer_commit %[[LP]], %[[W]] : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
// CHECK-NEXT: %[[WN:.+]] = wsgemm.pipeline_state_advance %[[W]] : !wsgemm.pipeline_state<4>
// CHECK-NEXT: scf.yield %[[WN]]
// CHECK: wsgemm.role_end
// CHECK-NEXT: } {
// CHECK-NEXT: ^bb0(%{{.+}}: !wsgemm.pipeline<4, load -> mma>, %[[EP:.+]]: !wsgemm.pipeline<2, epilogue_load -> mma>,
// CHECK: wsgemm.producer_acquire %[[EP]], %{{.+}} : !wsgemm.pipeline<2, epilogue_load -> mma>, !wsgemm.pipeline_state<2>
// CHECK: wsgemm.role_end
// CHECK-NEXT: } {
// CHECK-NEXT: ^bb0(%[[MP:.+]]: !wsgemm.pipeline<4, load -> mma>, %[[MC:.+]]: !wsgemm.pipeline<2, epilogue_load -> mma>, %[[MS:.+]]: !wsgemm.store_pipeline<2>,
// CHECK: wsgemm.consumer_wait %[[MP]], %{{.+}} : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
// CHECK: wsgemm.consumer_release %[[MP]], %{{.+}} : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
// CHECK: scf.if
// CHECK-NEXT: wsgemm.consumer_wait %[[MC]], %{{.+}} : !wsgemm.pipeline<2, epilogue_load -> mma>, !wsgemm.pipeline_state<2>
// CHECK: wsgemm.store_acquire %[[MS]] : !wsgemm.store_pipeline<2>
// CHECK: wsgemm.store_commit %[[MS]] : !wsgemm.store_pipeline<2>
// CHECK: wsgemm.store_tail %[[MS]] : !wsgemm.store_pipeline<2>
// CHECK-NEXT: wsgemm.role_end
// The same body lowered: states cross scf.for and scf.if as three i32.
// LOWER-LABEL: func.func @kernel
// LOWER: nvvm.barrier0
// LOWER: scf.for {{.*}} -> (i32, i32, i32)
// LOWER: scf.if %{{.*}} -> (i32, i32, i32)
// LOWER-NOT: wsgemm.
func.func @kernel(%k_tiles: index, %epi_tiles: index, %has_c: i1) {
  %ab = wsgemm.pipeline_create {tx_bytes = 32768, consumer_arrivals = 2}
      : !wsgemm.pipeline<4, load -> mma>
  %cp = wsgemm.pipeline_create {tx_bytes = 16384, consumer_arrivals = 2}
      : !wsgemm.pipeline<2, epilogue_load -> mma>
  %sp = wsgemm.store_pipeline_create : !wsgemm.store_pipeline<2>
  wsgemm.warp_specialize (%ab, %cp, %sp, %k_tiles, %epi_tiles, %has_c
      : !wsgemm.pipeline<4, load -> mma>,
        !wsgemm.pipeline<2, epilogue_load -> mma>,
        !wsgemm.store_pipeline<2>, index, index, i1)
      roles [load, epilogue_load, mma] warps [1, 1, 8] regs [40, 40, 232]
      attributes {kernel_tag = "gemm0"} {
  // Producer warp: acquire an empty stage, (TMA loads of A and B), commit.
  ^bb0(%p: !wsgemm.pipeline<4, load -> mma>,
       %c: !wsgemm.pipeline<2, epilogue_load -> mma>,
       %s: !wsgemm.store_pipeline<2>, %nk: index, %ne: index, %hc: i1):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %w0 = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<4>
    %wend = scf.for %k = %c0 to %nk step %c1 iter_args(%w = %w0)
        -> (!wsgemm.pipeline_state<4>) {
      wsgemm.producer_acquire %p, %w
          : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
      wsgemm.producer_commit %p, %w
          : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
      %wn = wsgemm.pipeline_state_advance %w : !wsgemm.pipeline_state<4>
      scf.yield %wn : !wsgemm.pipeline_state<4>
    }
    wsgemm.role_end
  } {
  // Epilogue load warp: one C subtile per epilogue subtile.
  ^bb0(%p: !wsgemm.pipeline<4, load -> mma>,
       %c: !wsgemm.pipeline<2, epilogue_load -> mma>,
       %s: !wsgemm.store_pipeline<2>, %nk: index, %ne: index, %hc: i1):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %w0 = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<2>
    %wend = scf.for %e = %c0 to %ne step %c1 iter_args(%w = %w0)
        -> (!wsgemm.pipeline_state<2>) {
      wsgemm.producer_acquire %c, %w
          : !wsgemm.pipeline<2, epilogue_load -> mma>, !wsgemm.pipeline_state<2>
      wsgemm.producer_commit %c, %w
          : !wsgemm.pipeline<2, epilogue_load -> mma>, !wsgemm.pipeline_state<2>
      %wn = wsgemm.pipeline_state_advance %w : !wsgemm.pipeline_state<2>
      scf.yield %wn : !wsgemm.pipeline_state<2>
    }
    wsgemm.role_end
  } {
  // Consumer warpgroups: wait, (wgmma), release one stage behind; then the
  // epilogue: wait C, (compute, R2S), TMA store through the store pipeline.
  ^bb0(%p: !wsgemm.pipeline<4, load -> mma>,
       %c: !wsgemm.pipeline<2, epilogue_load -> mma>,
       %s: !wsgemm.store_pipeline<2>, %nk: index, %ne: index, %hc: i1):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r0 = wsgemm.pipeline_state_init consumer : !wsgemm.pipeline_state<4>
    %ends:2 = scf.for %k = %c0 to %nk step %c1 iter_args(%r = %r0, %rel = %r0)
        -> (!wsgemm.pipeline_state<4>, !wsgemm.pipeline_state<4>) {
      wsgemm.consumer_wait %p, %r
          : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
      %first = arith.cmpi eq, %k, %c0 : index
      %reln = scf.if %first -> (!wsgemm.pipeline_state<4>) {
        scf.yield %rel : !wsgemm.pipeline_state<4>
      } else {
        wsgemm.consumer_release %p, %rel
            : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
        %n = wsgemm.pipeline_state_advance %rel : !wsgemm.pipeline_state<4>
        scf.yield %n : !wsgemm.pipeline_state<4>
      }
      %rn = wsgemm.pipeline_state_advance %r : !wsgemm.pipeline_state<4>
      scf.yield %rn, %reln : !wsgemm.pipeline_state<4>, !wsgemm.pipeline_state<4>
    }
    wsgemm.consumer_release %p, %ends#1
        : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
    %cr0 = wsgemm.pipeline_state_init consumer : !wsgemm.pipeline_state<2>
    %crend = scf.for %e = %c0 to %ne step %c1 iter_args(%cr = %cr0)
        -> (!wsgemm.pipeline_state<2>) {
      scf.if %hc {
        wsgemm.consumer_wait %c, %cr
            : !wsgemm.pipeline<2, epilogue_load -> mma>, !wsgemm.pipeline_state<2>
        wsgemm.consumer_release %c, %cr
            : !wsgemm.pipeline<2, epilogue_load -> mma>, !wsgemm.pipeline_state<2>
      }
      wsgemm.store_acquire %s : !wsgemm.store_pipeline<2>
      wsgemm.store_commit %s : !wsgemm.store_pipeline<2>
      %crn = wsgemm.pipeline_state_advance %cr : !wsgemm.pipeline_state<2>
      scf.yield %crn : !wsgemm.pipeline_state<2>
    }
    wsgemm.store_tail %s : !wsgemm.store_pipeline<2>
    wsgemm.role_end
  }
  return
}

// The ops a kernel that plans its own shared memory uses: barriers at a
// given address, a TMA load into a stage, the full barrier for other
// loads, run-time transaction bytes, a run-time advance, and a store wait
// for a chosen count.
// CHECK-LABEL: func.func @placed
// CHECK: %[[P:.+]] = wsgemm.pipeline_create in(%{{.+}} : !llvm.ptr<3>) {tx_bytes = 16384, consumer_arrivals = 1} : !wsgemm.pipeline<2, load -> mma>
// CHECK: %[[S:.+]] = wsgemm.pipeline_state_advance_by %{{.+}}, %{{.+}} : !wsgemm.pipeline_state<2>
// CHECK: wsgemm.producer_expect_tx %{{.+}}, %[[S]], %{{.+}} : !wsgemm.pipeline<2, load -> mma>, !wsgemm.pipeline_state<2>
// CHECK: wsgemm.producer_tma_load %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}] to %{{.+}}, %{{.+}}[%[[S]]] : !nvgpu.tensormap.descriptor<tensor = memref<1x128x64xbf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !wsgemm.pipeline<2, load -> mma>, !wsgemm.pipeline_state<2>
// CHECK: %{{.+}} = wsgemm.producer_get_barrier %{{.+}}, %[[S]] : !wsgemm.pipeline<2, load -> mma>, !wsgemm.pipeline_state<2>
// CHECK: wsgemm.store_tma %{{.+}} to %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}] in %{{.+}} : !nvgpu.tensormap.descriptor<tensor = memref<1x128x64xbf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>, !wsgemm.store_pipeline<3>
// CHECK: wsgemm.store_tma %{{.+}} to %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}] reduce #epi.store_reduce<add> in %{{.+}} : !nvgpu.tensormap.descriptor
// CHECK: wsgemm.store_wait %{{.+}} {pending = 1} : !wsgemm.store_pipeline<3>
// LOWER-LABEL: func.func @placed
// LOWER: nvvm.mbarrier.expect_tx
// LOWER: nvgpu.tma.async.load %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}], %{{.+}}[%{{.+}}] to %{{.+}} : {{.*}} -> memref<1x128x64xbf16, 3>
// LOWER: nvgpu.mbarrier.get
// LOWER: nvgpu.tma.async.store %{{.+}} to %{{.+}}[%{{.+}}, %{{.+}}, %{{.+}}] : memref<1x128x64xbf16, 3>
// The reducing store: the NVVM op on the descriptor as a pointer.
// LOWER: %[[DESC:.+]] = builtin.unrealized_conversion_cast %{{.+}} : !nvgpu.tensormap.descriptor<{{.*}}> to !llvm.ptr
// LOWER-NEXT: nvvm.cp.async.bulk.tensor.reduce %[[DESC]], %{{.+}}, box[%{{.+}}, %{{.+}}, %{{.+}}] {redKind = #nvvm.tma_redux_kind<add>} : !llvm.ptr, <3>
// LOWER-NEXT: nvvm.cp.async.bulk.commit.group
func.func @placed(%bars: !llvm.ptr<3>, %g: i32, %bytes: i32,
                  %map: !nvgpu.tensormap.descriptor<tensor = memref<1x128x64xbf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>,
                  %dst: !llvm.ptr<3>) {
  %p = wsgemm.pipeline_create in(%bars : !llvm.ptr<3>)
      {tx_bytes = 16384, consumer_arrivals = 1}
      : !wsgemm.pipeline<2, load -> mma>
  %sp = wsgemm.store_pipeline_create : !wsgemm.store_pipeline<3>
  wsgemm.warp_specialize (%p, %sp, %g, %bytes, %map, %dst
      : !wsgemm.pipeline<2, load -> mma>, !wsgemm.store_pipeline<3>, i32, i32,
        !nvgpu.tensormap.descriptor<tensor = memref<1x128x64xbf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>,
        !llvm.ptr<3>)
      roles [load, mma] warps [1, 4] {
  ^bb0(%lp: !wsgemm.pipeline<2, load -> mma>, %ls: !wsgemm.store_pipeline<3>,
       %lg: i32, %lb: i32,
       %lmap: !nvgpu.tensormap.descriptor<tensor = memref<1x128x64xbf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>,
       %ldst: !llvm.ptr<3>):
    %w0 = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<2>
    %w = wsgemm.pipeline_state_advance_by %w0, %lg : !wsgemm.pipeline_state<2>
    wsgemm.producer_acquire %lp, %w
        : !wsgemm.pipeline<2, load -> mma>, !wsgemm.pipeline_state<2>
    wsgemm.producer_expect_tx %lp, %w, %lb
        : !wsgemm.pipeline<2, load -> mma>, !wsgemm.pipeline_state<2>
    wsgemm.producer_tma_load %lmap[%lg, %lb, %lg] to %ldst, %lp[%w]
        : !nvgpu.tensormap.descriptor<tensor = memref<1x128x64xbf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>,
          !wsgemm.pipeline<2, load -> mma>, !wsgemm.pipeline_state<2>
    %bar = wsgemm.producer_get_barrier %lp, %w
        : !wsgemm.pipeline<2, load -> mma>, !wsgemm.pipeline_state<2>
    wsgemm.role_end
  } {
  ^bb0(%cp: !wsgemm.pipeline<2, load -> mma>, %cs: !wsgemm.store_pipeline<3>,
       %cg: i32, %cb: i32,
       %cmap: !nvgpu.tensormap.descriptor<tensor = memref<1x128x64xbf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>,
       %cdst: !llvm.ptr<3>):
    wsgemm.store_tma %cdst to %cmap[%cg, %cb, %cg] in %cs
        : !nvgpu.tensormap.descriptor<tensor = memref<1x128x64xbf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>,
          !wsgemm.store_pipeline<3>
    wsgemm.store_tma %cdst to %cmap[%cg, %cb, %cg] reduce #epi.store_reduce<add> in %cs
        : !nvgpu.tensormap.descriptor<tensor = memref<1x128x64xbf16, 3>, swizzle = swizzle_128b, l2promo = none, oob = zero, interleave = none>,
          !wsgemm.store_pipeline<3>
    wsgemm.store_commit %cs : !wsgemm.store_pipeline<3>
    wsgemm.store_wait %cs {pending = 1} : !wsgemm.store_pipeline<3>
    wsgemm.role_end
  }
  return
}

// A cp.async producer (CpAsyncProducer.cpp): the full barriers count the
// producer's 96 threads; each waits for the empty stage without arriving,
// thread 0 announces the TMA operand's bytes, and each arrives when its
// copies land (noinc), or with st.shared copies too, by the counting
// cp.async arrive, a proxy fence and a release arrival.
// CHECK-LABEL: func.func @cp_async_producer
// CHECK: wsgemm.pipeline_create {tx_bytes = 16384, consumer_arrivals = 2, producer_arrivals = 96} : !wsgemm.pipeline<4, load -> mma>
// CHECK: roles [load, epilogue_load, mma] warps [3, 1, 8]
// CHECK: wsgemm.producer_acquire %{{.+}}, %{{.+}} cp_async : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
// CHECK: wsgemm.producer_expect_tx
// CHECK: wsgemm.producer_commit %{{.+}}, %{{.+}} cp_async : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
// CHECK: wsgemm.producer_commit %{{.+}}, %{{.+}} cp_async stores : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
// CHECK: wsgemm.producer_commit %{{.+}}, %{{.+}} stores : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
// LOWER-LABEL: func.func @cp_async_producer
// LOWER: nvgpu.mbarrier.init %{{.+}}[%{{.+}}], %c96
// LOWER: arith.cmpi ult, %{{.+}}, %c3_i32
// LOWER-NOT: nvgpu.mbarrier.arrive.expect_tx
// LOWER: nvvm.mbarrier.expect_tx
// LOWER: nvvm.cp.async.mbarrier.arrive %{{.+}} {noinc = true}
// LOWER: nvvm.cp.async.mbarrier.arrive %{{.+}} :
// LOWER-NEXT: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// LOWER-NEXT: nvvm.mbarrier.arrive
// LOWER: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// LOWER-NEXT: nvvm.mbarrier.arrive
func.func @cp_async_producer(%k_tiles: index) {
  %ab = wsgemm.pipeline_create {tx_bytes = 16384, consumer_arrivals = 2,
                                producer_arrivals = 96}
      : !wsgemm.pipeline<4, load -> mma>
  %cp = wsgemm.pipeline_create {tx_bytes = 16384, consumer_arrivals = 2}
      : !wsgemm.pipeline<2, epilogue_load -> mma>
  wsgemm.warp_specialize (%ab, %cp, %k_tiles
      : !wsgemm.pipeline<4, load -> mma>,
        !wsgemm.pipeline<2, epilogue_load -> mma>, index)
      roles [load, epilogue_load, mma] warps [3, 1, 8] {
  ^bb0(%p: !wsgemm.pipeline<4, load -> mma>,
       %c: !wsgemm.pipeline<2, epilogue_load -> mma>, %nk: index):
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %bytes = arith.constant 16384 : i32
    %w0 = wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<4>
    %wend = scf.for %k = %c0 to %nk step %c1 iter_args(%w = %w0)
        -> (!wsgemm.pipeline_state<4>) {
      wsgemm.producer_acquire %p, %w cp_async
          : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
      wsgemm.producer_expect_tx %p, %w, %bytes
          : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
      wsgemm.producer_commit %p, %w cp_async
          : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
      wsgemm.producer_commit %p, %w cp_async stores
          : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
      wsgemm.producer_commit %p, %w stores
          : !wsgemm.pipeline<4, load -> mma>, !wsgemm.pipeline_state<4>
      %wn = wsgemm.pipeline_state_advance %w : !wsgemm.pipeline_state<4>
      scf.yield %wn : !wsgemm.pipeline_state<4>
    }
    wsgemm.role_end
  } {
  ^bb0(%p: !wsgemm.pipeline<4, load -> mma>,
       %c: !wsgemm.pipeline<2, epilogue_load -> mma>, %nk: index):
    wsgemm.role_end
  } {
  ^bb0(%p: !wsgemm.pipeline<4, load -> mma>,
       %c: !wsgemm.pipeline<2, epilogue_load -> mma>, %nk: index):
    wsgemm.role_end
  }
  return
}
