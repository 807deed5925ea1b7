// RUN: ws-gemm-opt %s --wsgemm-plan --wsgemm-emit-manifest --wsgemm-specialize --epi-visit-fragments --wsgemm-lower-pipelines -split-input-file | FileCheck %s

// The kernel: a gpu.module per gemm with an sm_90a target, tensor maps by
// value as __grid_constant__ parameters, then scalars, vectors and sizes.

// CHECK-LABEL: gpu.module @bias_relu_module [#nvvm.target<O = 3, chip = "sm_90a", features = "+ptx80">]
// CHECK: llvm.mlir.global external @wsgemm_smem() {addr_space = 3 : i32, alignment = 1024 : i64}
// CHECK: llvm.func @bias_relu(
// CHECK-SAME: %{{.*}}: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant}
// CHECK-SAME: %{{.*}}: f32, %{{.*}}: f32, %{{.*}}: !llvm.ptr<1>, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32)
// CHECK-SAME: nvvm.kernel, nvvm.maxntid = array<i32: 384, 1, 1>
// CHECK-SAME: wsgemm.manifest =
// The whole flow of the explicit level down to nvgpu and NVVM: each
// pipeline's barriers are initialised by one thread, then the CTA
// synchronises.
// CHECK: nvgpu.mbarrier.init
// CHECK: nvvm.fence.mbarrier.init
// CHECK: nvgpu.mbarrier.init
// CHECK: nvvm.fence.mbarrier.init
// CHECK: nvvm.barrier0
// Warpgroup 0 gives registers back, then warp 0 loads A/B and warp 1 C.
// CHECK: nvvm.setmaxregister  decrease 40
// Producer: acquire an empty stage, expect the stage's bytes (A 128x64 +
// B 128x64 f16 = 32768), TMA A and B.
// CHECK: nvvm.elect.sync
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%{{.*}}], %c32768
// CHECK: nvgpu.tma.async.load
// CHECK: nvgpu.tma.async.load
// Epilogue loads: two 64x32 f16 C subtiles a stage.
// CHECK: nvvm.elect.sync
// CHECK: nvgpu.mbarrier.try_wait.parity
// CHECK: nvgpu.mbarrier.arrive.expect_tx %{{.*}}[%{{.*}}], %c8192
// CHECK: nvgpu.tma.async.load
// CHECK: nvgpu.tma.async.load
// The consumer warpgroups take the registers.
// CHECK: nvvm.setmaxregister  increase 232
// Consumer: wgmma m64n128k16 f16 x f16 -> f32, one group kept in flight.
// CHECK: nvvm.wgmma.fence.aligned
// CHECK-COUNT-4: nvvm.wgmma.mma_async {{.*}} <m = 64, n = 128, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// CHECK: nvvm.wgmma.commit.group.sync.aligned
// CHECK: nvvm.wgmma.wait.group.sync.aligned 1
// CHECK: llvm.inline_asm has_side_effects "{ .reg .pred p; setp.ne.b32 p, $1, 0; @p mbarrier.arrive.shared::cta.b64 _, [$0]; }"
// CHECK: nvvm.wgmma.wait.group.sync.aligned 0
// Epilogue: the EVT's arithmetic on each element, stmatrix, proxy fence,
// named barrier, TMA store and commit.
// CHECK: arith.mulf
// CHECK: arith.addf
// CHECK: arith.maximumf
// CHECK: nvvm.stmatrix
// CHECK: nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
// CHECK: nvvm.barrier id = %{{.*}} number_of_threads = %{{.*}}
// CHECK: nvgpu.tma.async.store %{{.*}} to %{{.*}}[%{{.*}}, %{{.*}}] : memref<64x32xf16, #gpu.address_space<workgroup>>
// CHECK: nvvm.cp.async.bulk.commit.group
// CHECK: nvvm.cp.async.bulk.wait_group 0
// CHECK-NOT: wsgemm.
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

// f32 D is written with vector st.shared, not stmatrix; no C: no C tensor map.
// CHECK-LABEL: llvm.func @plain_f32(
// CHECK-SAME: %{{.*}}: !llvm.ptr {{{.*}}nvvm.grid_constant}, %{{.*}}: !llvm.ptr {{{.*}}nvvm.grid_constant}, %{{.*}}: !llvm.ptr {{{.*}}nvvm.grid_constant}, %{{.*}}: i32
// CHECK-NOT: nvvm.stmatrix
// CHECK: llvm.store %{{.*}}, %{{.*}} {alignment = 8 : i64} : vector<2xf32>, !llvm.ptr<3>
wsgemm.gemm @plain_f32 a(f16) b(f16) d(f32) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
