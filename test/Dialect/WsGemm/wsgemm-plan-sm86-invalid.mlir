// RUN: not ws-gemm-opt %s --wsgemm-plan=chip=sm_86 2>&1 | FileCheck %s
// RUN: not ws-gemm-opt %s --wsgemm-plan=chip=sm_89 2>&1 | FileCheck %s
// RUN: ws-gemm-opt %s --wsgemm-plan=chip=sm_80 | FileCheck %s --check-prefix=SM80
// RUN: not ws-gemm-opt %s --wsgemm-plan=chip=sm_70 2>&1 | FileCheck %s --check-prefix=CHIP

// sm_86 and sm_89 give a block 99 KiB (101376 bytes) of shared memory:
// 3 stages of a 128x128x64 f16 tile (32 KiB each) and the D buffers do
// not fit there; they do on sm_80's 163 KiB.
// CHECK: error: needs 107568 bytes of shared memory, 101376 available
// SM80: stages = 3
// SM80-SAME: wsgemm.chip = "sm_80"
wsgemm.gemm @stages3 a(f16) b(f16) d(f16) config #wsgemm.config<stages = 3> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// CHIP: --wsgemm-plan chip must be sm_80, sm_86, sm_89 or sm_90a, got 'sm_70'
