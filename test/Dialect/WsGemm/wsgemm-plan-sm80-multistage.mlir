// RUN: ws-gemm-opt %s --wsgemm-plan=chip=sm_80 | FileCheck %s

// A tile whose accumulators neither one warpgroup (255 registers) nor the
// cooperative kernel's two (168 registers a thread: 384 threads) hold,
// 128 x 256 (128 a thread), plans the multistage kernel: 256 threads of
// 255 registers, CUTLASS's sm_80 default config (128x256x64, 3 stages),
// four columns of one warp (64 x 64 warp tiles, CUTLASS's too; two columns,
// 32 x 128, when written). PlanningChip.cpp, fillChipDefaults.
// CHECK-LABEL: @wide256
// CHECK: tile = [128, 256, 64], cluster = [1, 1, 1], stages = 3, schedule = multistage
// CHECK-SAME: warp_columns = 4,
// CHECK-LABEL: @wide256_w2
// CHECK: stages = 3, schedule = multistage
// CHECK-SAME: warp_columns = 2,
// A split tile too (the family's stream-K member), with two columns: four
// spilled beside stream-K's fixup.
// CHECK-LABEL: @wide256_streamk
// CHECK: stages = 3, schedule = multistage
// CHECK-SAME: scheduler = stream_k
// CHECK-SAME: warp_columns = 2,
// 128 x 192 still fits the cooperative kernel (96 a thread); 256 x 128
// (128 a thread in two 128-row warpgroups) plans multistage like 128 x 256
// (with a C read it stays cooperative and is refused by registers;
// wsgemm-plan-sm80-invalid.mlir).
// CHECK-LABEL: @wide192
// CHECK: schedule = cooperative
// CHECK-LABEL: @tall256
// CHECK: tile = [256, 128, 64], cluster = [1, 1, 1], stages = 3, schedule = multistage
// Four columns of warps are the multistage kernel's: asked for without a
// schedule, they plan it.
// CHECK-LABEL: @w4_128
// CHECK: tile = [128, 128, 64], cluster = [1, 1, 1], stages = 4, schedule = multistage
// CHECK-SAME: warp_columns = 4,
wsgemm.gemm @wide256 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
wsgemm.gemm @wide256_w2 a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = multistage,
                          warp_columns = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
wsgemm.gemm @wide256_streamk a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 256, 64], scheduler = stream_k> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
wsgemm.gemm @wide192 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 192, 64]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
wsgemm.gemm @tall256 a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [256, 128, 64]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
wsgemm.gemm @w4_128 a(f16) b(f16) d(f16)
    config #wsgemm.config<warp_columns = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
