// RUN: ws-gemm-opt %s | ws-gemm-opt | FileCheck %s
// RUN: ws-gemm-opt %s --mlir-print-op-generic | ws-gemm-opt | FileCheck %s
// RUN: ws-gemm-opt %s --wsgemm-plan | FileCheck %s --check-prefix=PLAN

// Round trip of a mixed-input wsgemm.gemm (docs/mixed-input.md): a
// quantized A and #wsgemm.dequant, and what --wsgemm-plan fills in.

// CHECK-LABEL: wsgemm.gemm @w4_gptq a(i4) b(bf16) d(bf16) dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4> config #wsgemm.config<tile = [128, 16, 64]>
// PLAN-LABEL: wsgemm.gemm @w4_gptq a(i4) b(bf16) d(bf16) dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
// PLAN-SAME: tile = [128, 16, 64]
// PLAN-SAME: schedule = cooperative
wsgemm.gemm @w4_gptq a(i4) b(bf16) d(bf16)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [128, 16, 64]> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

// Symmetric int4, f16, batched, no config: the planner's default k-tile
// for a quantized A is 128 (two packed units), not B's 64.
// CHECK-LABEL: wsgemm.gemm @w4_sym batched a(i4) b(f16) d(f16) dequant_a #wsgemm.dequant<scale = f16, group = 128, zero = bias8> {
// PLAN-LABEL: wsgemm.gemm @w4_sym
// PLAN-SAME: tile = [128, 128, 128]
wsgemm.gemm @w4_sym batched a(i4) b(f16) d(f16)
    dequant_a #wsgemm.dequant<scale = f16, group = 128, zero = bias8> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : f16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.store %z : f32
  epi.yield
}
