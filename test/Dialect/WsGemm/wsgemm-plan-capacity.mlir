// RUN: ws-gemm-opt %s --wsgemm-plan="smem-capacity=101376" | FileCheck %s

// The smem-capacity option: plan for a device with 99 KiB (101376 bytes) of
// shared memory per CTA. Figures as in wsgemm-plan.mlir; every total
// includes the 1024 bytes the kernel uses to align its SMEM base.

// 128x128x64 f16, cooperative, D 2 x 128x32 x 2 B = 16384.
// stages = (101376 - 17408) / 32800 = 2;
// SMEM = 2*32768 + 16384 + 2*16 + 1024 = 82976.
// CHECK-LABEL: wsgemm.gemm @basic_f16
// CHECK-SAME: stages = 2,
// CHECK-SAME: attributes {wsgemm.smem_bytes = 82976 : i64}
wsgemm.gemm @basic_f16 a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// 64x128x64: pingpong (CUTLASS's auto rule); epi_tile [64, 32], D 2 x
// 64x32 x 2 B = 8192; stage = 64*64*2 + 128*64*2 = 24576;
// stages = (101376 - 9216) / 24608 = 3;
// SMEM = 3*24576 + 8192 + 48 + 32 (order barriers) + 1024 = 83024.
// CHECK-LABEL: wsgemm.gemm @small_tile
// CHECK-SAME: stages = 3, schedule = pingpong,
// CHECK-SAME: attributes {wsgemm.smem_bytes = 83024 : i64}
wsgemm.gemm @small_tile a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [64, 128, 64]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
