// RUN: ws-gemm-opt %s --wsgemm-plan --wsgemm-emit-manifest --wsgemm-specialize -split-input-file | FileCheck %s

// The explicit level: pipelines created in the kernel's shared-memory carve
// (mainloop StagesAB = 6 with A + B = 32768 bytes a stage; epilogue loads
// StagesC = 4 with one 64 x 32 f16 C subtile per consumer warpgroup = 8192;
// StagesD = StagesC under ReuseSmemC), then one region per warp role.

// CHECK-LABEL: gpu.module @bias_relu_module
// CHECK: llvm.func @bias_relu(
// CHECK: %[[MAIN:.*]] = wsgemm.pipeline_create in(%{{.*}} : !llvm.ptr<3>) {tx_bytes = 32768, consumer_arrivals = 2} : !wsgemm.pipeline<6, load -> mma>
// CHECK: %[[EPI:.*]] = wsgemm.pipeline_create in(%{{.*}} : !llvm.ptr<3>) {tx_bytes = 8192, consumer_arrivals = 2} : !wsgemm.pipeline<4, epilogue_load -> mma>
// CHECK: %[[STORE:.*]] = wsgemm.store_pipeline_create : !wsgemm.store_pipeline<4>
// CHECK: wsgemm.warp_specialize({{.*}}, %[[MAIN]], %[[EPI]], %[[STORE]] :
// CHECK-SAME: roles [load, epilogue_load, mma] warps [1, 1, 8] regs [40, 40, 232]
// The load warp: the tensor maps as TMA descriptors (A: 128 rows of 64 K,
// 128B swizzle), one elected thread, the state carried through the tile
// and k loops; acquire, TMA A and B into the stage, commit.
// CHECK: %[[B:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_128b, l2promo = l2promo_128b, oob = zero, interleave = none>
// CHECK: %[[A:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<128x64xf16
// CHECK: nvvm.elect.sync
// CHECK: wsgemm.pipeline_state_init producer : !wsgemm.pipeline_state<6>
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (!wsgemm.pipeline_state<6>)
// CHECK: scf.for {{.*}} iter_args(%[[S:.*]] = %{{.*}}) -> (!wsgemm.pipeline_state<6>)
// CHECK: wsgemm.producer_acquire %{{.*}}, %[[S]] : !wsgemm.pipeline<6, load -> mma>
// CHECK: wsgemm.producer_tma_load %[[A]][%{{.*}}, %{{.*}}] to %{{.*}}, %{{.*}}[%[[S]]]
// CHECK: wsgemm.producer_tma_load %[[B]][%{{.*}}, %{{.*}}] to %{{.*}}, %{{.*}}[%[[S]]]
// CHECK: wsgemm.producer_commit %{{.*}}, %[[S]]
// CHECK: wsgemm.pipeline_state_advance %[[S]] : !wsgemm.pipeline_state<6>
// CHECK: wsgemm.role_end
// The epilogue-load warp: per subtile, C of both consumer warpgroups
// (unswizzled 64 x 32 boxes).
// CHECK: %[[C:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !llvm.ptr to !nvgpu.tensormap.descriptor<tensor = memref<64x32xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_64b
// CHECK: nvvm.elect.sync
// CHECK: scf.for {{.*}} -> (!wsgemm.pipeline_state<4>)
// CHECK: scf.for {{.*}} iter_args(%[[E:.*]] = %{{.*}}) -> (!wsgemm.pipeline_state<4>)
// CHECK: wsgemm.producer_acquire %{{.*}}, %[[E]] : !wsgemm.pipeline<4, epilogue_load -> mma>
// CHECK-COUNT-2: wsgemm.producer_tma_load %[[C]][%{{.*}}, %{{.*}}] to %{{.*}}, %{{.*}}[%[[E]]]
// CHECK: wsgemm.producer_commit %{{.*}}, %[[E]]
// CHECK: wsgemm.role_end
// The consumers: wait for a full stage, wgmma, release the previous stage.
// CHECK: wsgemm.consumer_wait %{{.*}}, %{{.*}} : !wsgemm.pipeline<6, load -> mma>
// CHECK-COUNT-4: nvvm.wgmma.mma_async
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: wsgemm.consumer_release %{{.*}}, %{{.*}} : !wsgemm.pipeline<6, load -> mma>
// Epilogue subtile: wait for C, visit, make the staging buffer free, R2S,
// fence, TMA store, commit; ReuseSmemC hands the previous subtile's C
// stage back once its D store has read it.
// The EVT is one epi.visit per 16-element fragment (fragment_size): the
// sources are the accumulator, C (read from the stage, zero when beta gates
// it), the row's bias elements and the scalars; the body is the gemm's.
// CHECK: wsgemm.consumer_wait %{{.*}}, %{{.*}} : !wsgemm.pipeline<4, epilogue_load -> mma>
// CHECK: %[[ACC:.*]] = vector.from_elements {{.*}} : vector<16xf32>
// CHECK: %[[CF:.*]] = vector.from_elements {{.*}} : vector<16xf32>
// CHECK: %[[BIAS:.*]] = vector.from_elements {{.*}} : vector<16xf32>
// CHECK: %[[D:.*]] = epi.visit %[[ACC]] : vector<16xf32> sources(%[[CF]], %{{.*}}, %{{.*}}, %[[BIAS]] : vector<16xf32>, f32, f32, vector<16xf32>) names ["C", "alpha", "beta", "bias"] outputs ["D"] d_type f16 c_type f16 -> vector<16xf32>
// CHECK: epi.load_src : f32
// CHECK: arith.maximumf
// CHECK: epi.store
// CHECK: vector.extract %[[D]][0] : f32 from vector<16xf32>
// CHECK: wsgemm.store_acquire %{{.*}} : !wsgemm.store_pipeline<4>
// CHECK: nvvm.barrier id
// stmatrix rows land where the 64B-swizzled TMA store reads them: the
// 16-byte chunk XOR bits 7-8 of the offset.
// CHECK: %[[PH:.*]] = arith.shrui %[[OFF:.*]], %c7_i32{{.*}} : i32
// CHECK: %[[PH2:.*]] = arith.andi %[[PH]], %c3_i32{{.*}} : i32
// CHECK: %[[SH:.*]] = arith.shli %[[PH2]], %c4_i32{{.*}} : i32
// CHECK: %[[SWZ:.*]] = arith.xori %[[OFF]], %[[SH]] : i32
// CHECK: %[[ADDR:.*]] = llvm.getelementptr %{{.*}}[%[[SWZ]]]
// CHECK: nvvm.stmatrix %[[ADDR]]
// CHECK: nvvm.fence.proxy
// CHECK: nvvm.barrier id
// CHECK: wsgemm.store_tma %{{.*}} to %{{.*}}[%{{.*}}, %{{.*}}] in %{{.*}} : !nvgpu.tensormap.descriptor<tensor = memref<64x32xf16, #gpu.address_space<workgroup>>, swizzle = swizzle_64b
// CHECK: wsgemm.store_commit %{{.*}} : !wsgemm.store_pipeline<4>
// CHECK: wsgemm.consumer_wait
// CHECK: wsgemm.store_commit
// CHECK: wsgemm.store_wait %{{.*}} {pending = 1} : !wsgemm.store_pipeline<4>
// CHECK: wsgemm.consumer_release %{{.*}}, %{{.*}} : !wsgemm.pipeline<4, epilogue_load -> mma>
// CHECK: wsgemm.store_wait %{{.*}} {pending = 0}
// CHECK: wsgemm.consumer_release
// CHECK: wsgemm.store_tail %{{.*}} : !wsgemm.store_pipeline<4>
// CHECK: wsgemm.role_end
// CHECK-NOT: wsgemm.gemm
wsgemm.gemm @bias_relu a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %x = arith.mulf %acc, %alpha : f32
  %y = arith.mulf %c, %beta : f32
  %z = arith.addf %x, %y : f32
  %w = arith.addf %z, %bias : f32
  %zero = arith.constant 0.0 : f32
  %r = arith.maximumf %w, %zero : f32
  epi.store %r : f32
  epi.yield
}

// -----

// C gated by beta while an aux matrix is read: the static byte count is the
// aux subtile's (64 x 32 f16 = 4096, one consumer warpgroup); C's bytes are
// announced only when beta != 0. Without ReuseSmemC the consumer hands the
// stage back right after the barrier that follows its reads; DelayTmaStore
// waits for StagesD - 2 store batches.
// CHECK-LABEL: llvm.func @gated_aux(
// CHECK: wsgemm.pipeline_create in(%{{.*}} : !llvm.ptr<3>) {tx_bytes = 4096, consumer_arrivals = 1} : !wsgemm.pipeline<4, epilogue_load -> mma>
// CHECK: roles [load, epilogue_load, mma] warps [1, 1, 4]
// CHECK-NOT: regs
// CHECK: wsgemm.role_end
// CHECK: %[[BETA:.*]] = arith.cmpf une, %{{.*}}, %{{.*}} : f32
// CHECK: wsgemm.producer_acquire
// CHECK-NEXT: scf.if %[[BETA]] {
// CHECK: wsgemm.producer_expect_tx %{{.*}}, %{{.*}}, %{{.*}} : !wsgemm.pipeline<4, epilogue_load -> mma>
// CHECK: wsgemm.role_end
// CHECK: wsgemm.consumer_wait %{{.*}}, %[[ES:.*]] : !wsgemm.pipeline<4, epilogue_load -> mma>
// CHECK: wsgemm.store_wait %{{.*}} {pending = 0} : !wsgemm.store_pipeline<2>
// CHECK: nvvm.barrier id
// CHECK: wsgemm.consumer_release %{{.*}}, %[[ES]]
// CHECK: nvvm.stmatrix
wsgemm.gemm @gated_aux a(f16) b(f16) c(f16) d(f16)
    config #wsgemm.config<schedule = warp_specialized, tile = [128, 128, 64],
                          reuse_smem_c = false, delay_tma_store = true> {
^bb0(%acc: f32):
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src skip_if_zero "beta" : f32
  %res = epi.aux_load "residual" : f16 -> f32
  %y = arith.mulf %c, %beta : f32
  %z = arith.addf %acc, %y : f32
  %w = arith.addf %z, %res : f32
  epi.store %w : f32
  epi.yield
}

// -----

// No C and no aux loads: no epilogue-load pipeline and no such role.
// CHECK-LABEL: llvm.func @plain(
// CHECK-NOT: epilogue_load
// CHECK: roles [load, mma] warps [1, 8] regs [40, 232]
// CHECK-NOT: epilogue_load
wsgemm.gemm @plain a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// Tile-scheduler swizzle 4 (raster along N): tiles come in bands of 4 M rows
// that walk N together; the last band holds the remaining tilesM % 4 rows.
// CHECK-LABEL: llvm.func @swizzled(
// CHECK-SAME: \22swizzle\22: 4
// CHECK: nvvm.elect.sync
// CHECK: %[[IN:.*]] = arith.remui %{{.*}}, %{{.*}} : i32
// CHECK: %[[FAST:.*]] = arith.select %false, %{{.*}}, %{{.*}} : i32
// CHECK: %[[SLOW:.*]] = arith.select %false, %{{.*}}, %{{.*}} : i32
// CHECK: %[[BAND:.*]] = arith.muli %c4_i32, %[[FAST]] : i32
// CHECK: %[[FULL:.*]] = arith.divui %[[SLOW]], %c4_i32 : i32
// CHECK: %[[TAIL0:.*]] = arith.muli %[[FULL]], %[[BAND]] : i32
// CHECK: %[[INTAIL:.*]] = arith.cmpi uge, %[[IN]], %[[TAIL0]] : i32
// CHECK: %[[SIZE:.*]] = arith.select %[[INTAIL]], %{{.*}}, %c4_i32 : i32
// CHECK: %[[POS:.*]] = arith.select %[[INTAIL]], %{{.*}}, %{{.*}} : i32
// CHECK: %[[B:.*]] = arith.select %[[INTAIL]], %[[FULL]], %{{.*}} : i32
// CHECK: %[[FIRST:.*]] = arith.divui %[[POS]], %[[SIZE]] : i32
// CHECK: %[[OFF:.*]] = arith.remui %[[POS]], %[[SIZE]] : i32
// CHECK: %[[B4:.*]] = arith.muli %[[B]], %c4_i32 : i32
// CHECK: %[[SECOND:.*]] = arith.addi %[[B4]], %[[OFF]] : i32
wsgemm.gemm @swizzled a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative,
                          swizzle = 4, raster = along_n> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// fragment_size decides how many accumulator elements one epi.visit takes:
// a 64 x 32 subtile gives each thread 16 elements, visited 4 at a time.
// CHECK-LABEL: llvm.func @fragments(
// CHECK-COUNT-4: epi.visit %{{.*}} : vector<4xf32> sources() names [] outputs ["D"] d_type bf16 -> vector<4xf32>
// CHECK-NOT: epi.visit
// CHECK: nvvm.stmatrix
wsgemm.gemm @fragments a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 64, 64], schedule = warp_specialized,
                          epi_tile = [64, 32], fragment_size = 4> {
^bb0(%acc: f32):
  %r = epi.relu %acc : f32
  epi.store %r : f32
  epi.yield
}

// -----

// C gated by a parameter no epi.scalar reads (canonicalization drops an
// unused one): the gate is a kernel parameter of its own.
// CHECK-LABEL: llvm.func @gate_only(
// CHECK-SAME: %{{.*}}: f32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32)
// CHECK-SAME: \22name\22: \22beta\22
// CHECK: arith.cmpf une
wsgemm.gemm @gate_only a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  %c = epi.load_src skip_if_zero "beta" : f32
  %d = arith.addf %acc, %c : f32
  epi.store %d : f32
  epi.yield
}
