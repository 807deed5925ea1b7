// RUN: ws-gemm-opt %s --wsgemm-plan=chip=sm_80 | FileCheck %s
// RUN: ws-gemm-opt %s --wsgemm-plan=chip=sm_86 | FileCheck %s --check-prefix=SM86

// The sm_8x defaults (PlanningChip.cpp): 128x128x64 cooperative, both
// operands copied by 16-byte cp.async, direct stores, no register budgets,
// the stage count from the chip's shared memory per block, the chip
// recorded on the op.
// CHECK: tile = [128, 128, 64], cluster = [1, 1, 1], stages = 4, schedule = cooperative
// CHECK-NOT: producer_regs
// CHECK-SAME: store = direct
// CHECK-SAME: load_a = cp_async, load_b = cp_async, align_a = 16, align_b = 16>
// CHECK-SAME: wsgemm.chip = "sm_80"
// SM86: stages = 2
// SM86: wsgemm.chip = "sm_86"
wsgemm.gemm @plain a(f16) b(f16) d(f16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
