// RUN: ws-gemm-opt %s -split-input-file --wsgemm-plan=chip=sm_89 -verify-diagnostics
// RUN: not ws-gemm-opt %s -split-input-file --wsgemm-plan=chip=sm_86 2>&1 | FileCheck %s --check-prefix=SM86

// sm_89's fp8 (PlanningChip.cpp): e4m3 and e5m2 A and B multiply with
// mma.sync.m16n8k32, in 128-element (128-byte) k-tiles; sm_86 and sm_80
// have no fp8 mma.sync. Each refusal names the chip and the rule.

// SM86: sm_86 has no fp8 mma.sync (m16n8k32 on e4m3 or e5m2 is sm_89's): got a(f8e4m3) and b(f8e5m2); sm_86 kernels multiply f16 or bf16
wsgemm.gemm @fp8_ok a(f8E4M3FN) b(f8E5M2) d(bf16) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{sm_89 tile K must be 128 (128 bytes of a 8-bit operand: one swizzled row), got 64}}
wsgemm.gemm @fp8_k64 a(f8E4M3FN) b(f8E4M3FN) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{sm_89 has no fp8 promotion: it is sm_90a's wgmma knob (mma.sync accumulates in f32)}}
wsgemm.gemm @fp8_promote a(f8E4M3FN) b(f8E4M3FN) d(bf16)
    config #wsgemm.config<promotion_interval = 4> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// -----

// expected-error @+1 {{sm_89 kernels store an f16, bf16 or f32 D, got d(f8e4m3)}}
wsgemm.gemm @fp8_d a(f8E4M3FN) b(f8E4M3FN) d(f8E4M3FN) {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
