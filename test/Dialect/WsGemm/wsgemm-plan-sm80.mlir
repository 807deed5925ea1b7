// RUN: ws-gemm-opt %s --wsgemm-plan=chip=sm_80 | FileCheck %s
// RUN: ws-gemm-opt %s --wsgemm-plan=chip=sm_86 | FileCheck %s --check-prefix=SM86

// The sm_8x defaults (PlanningChip.cpp): 128x128x64 warp_specialized (one
// consumer warpgroup), persistent, both operands copied by 16-byte
// cp.async, direct stores, no register budgets, the stage count from the
// chip's shared memory per block, the chip recorded on the op. The
// consumers copy their output subtiles out (copy_out = mma, two store
// buffers) where K is known only at launch
// (wsgemm-plan-sm80-copy-out.mlir).
// CHECK: tile = [128, 128, 64], cluster = [1, 1, 1], stages = 4, schedule = warp_specialized, persistent = true
// CHECK-SAME: stages_d = 2
// CHECK-NOT: producer_regs
// CHECK-SAME: store = direct
// The one-warpgroup kernel keeps wgmma's layout (one column of four warps).
// CHECK-SAME: load_a = cp_async, load_b = cp_async, align_a = 16, align_b = 16, copy_out = mma>
// CHECK-SAME: wsgemm.chip = "sm_80"
// SM86: stages = 2
// SM86-SAME: schedule = warp_specialized
// SM86-SAME: copy_out = mma>
// SM86: wsgemm.chip = "sm_86"
wsgemm.gemm @plain a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// A tile whose accumulators one warpgroup cannot hold (128 x 192: 192 per
// thread) splits its rows between two: cooperative, whose warps take two
// columns of two (warp_columns = 2).
// CHECK-LABEL: @wide
// CHECK: tile = [128, 192, 64]
// CHECK-SAME: schedule = cooperative
// CHECK-SAME: warp_columns = 2,
// CHECK-LABEL: @coop
// CHECK: schedule = cooperative
// CHECK-SAME: warp_columns = 2,
// So does a 128-row epilogue subtile, which spans two warpgroups' rows.
// CHECK-LABEL: @tall_subtile
// CHECK: schedule = cooperative
// CHECK-SAME: epi_tile = [128, 16]
// wgmma's layout (one column of four warps) where the epilogue reads C and
// in the one-warpgroup kernel (64 x 64 warp tiles measured the same
// there), unless asked for.
// CHECK-LABEL: @with_c
// CHECK-NOT: warp_columns
// CHECK: wsgemm.chip
// CHECK-LABEL: @one_warpgroup
// CHECK-NOT: warp_columns
// CHECK: wsgemm.chip
// CHECK-LABEL: @one_warpgroup_asked
// CHECK: schedule = warp_specialized
// CHECK-SAME: warp_columns = 2,
// Multistage's two warpgroups take two columns of warps too.
// CHECK-LABEL: @multistage
// CHECK: schedule = multistage
// CHECK-SAME: warp_columns = 2,
// SM86-LABEL: @with_c
wsgemm.gemm @wide a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 192, 64]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
wsgemm.gemm @coop a(f16) b(f16) d(f16)
    config #wsgemm.config<schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
wsgemm.gemm @tall_subtile a(f16) b(f16) d(f16)
    config #wsgemm.config<epi_tile = [128, 16]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
wsgemm.gemm @with_c a(f16) b(f16) c(f16) d(f16) {
^bb0(%acc: f32):
  %c = epi.load_src : f32
  %z = arith.addf %acc, %c : f32
  epi.store %z : f32
  epi.yield
}
wsgemm.gemm @one_warpgroup a(f16) b(f16) d(f16)
    config #wsgemm.config<schedule = warp_specialized> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
wsgemm.gemm @one_warpgroup_asked a(f16) b(f16) d(f16)
    config #wsgemm.config<schedule = warp_specialized, warp_columns = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
wsgemm.gemm @multistage a(f16) b(f16) d(f16)
    config #wsgemm.config<schedule = multistage> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// A static K up to 1024: the load warps copy the output out (copy_out =
// load) from a store ring of the whole tile, which leaves sm_86 its 2
// stages too (wsgemm-plan-sm80-copy-out.mlir has the rule's other cases).
// CHECK-LABEL: @short_k
// CHECK-SAME: stages = 4
// CHECK-SAME: copy_out = load>
// SM86-LABEL: @short_k
// SM86-SAME: stages = 2
// SM86-SAME: stages_d = 8
// SM86-SAME: copy_out = load>
// SM86-SAME: wsgemm.smem_bytes = 99488
wsgemm.gemm @short_k a(f16) b(f16) d(f16) shape [8192, 8192, 1024] {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
