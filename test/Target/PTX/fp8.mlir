// REQUIRES: ptxas
// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=ptx
// RUN: FileCheck %s --check-prefix=MIXED --input-file=%t/fp8_mixed_e4m3_d.ptx
// RUN: FileCheck %s --check-prefix=SCALED --input-file=%t/fp8_scaled_amax_aux.ptx
// RUN: FileCheck %s --check-prefix=VEC --input-file=%t/fp8_e5m2_vec_bf16.ptx
// RUN: FileCheck %s --check-prefix=WIDE --input-file=%t/fp8_wide_f32.ptx
// RUN: %ptxas -arch=sm_90a -v %t/fp8_mixed_e4m3_d.ptx -o %t/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_90a -v %t/fp8_scaled_amax_aux.ptx -o %t/b.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_90a -v %t/fp8_e5m2_vec_bf16.ptx -o %t/c.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_90a -v %t/fp8_wide_f32.ptx -o %t/d.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: FileCheck %s --check-prefix=PROMOTED --input-file=%t/fp8_promoted.ptx
// RUN: %ptxas -arch=sm_90a -v %t/fp8_promoted.ptx -o %t/e.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// fp8 (issue 11): wgmma's k32 forms on K-major 8-bit operands (tile K 128,
// the same 128-byte swizzled rows as 16-bit tile K 64, so four k32 steps
// per k-tile per 64-row block), 8-bit D packed by cvt.rn.satfinite and
// staged with 16-bit st.shared (no stmatrix), 8-bit sources widened
// exactly through cvt.rn.f16x2.{e4m3x2,e5m2x2}.

// e4m3 x e5m2 -> e4m3 D, planner defaults: cooperative 128x128x128, one
// m64 block per warpgroup, 4 k32 steps per k-tile; wgmma takes no
// transpose operands for 8-bit types.
// MIXED: .entry fp8_mixed_e4m3_d(
// MIXED-COUNT-4: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e5m2 {{.*}}, p, 1, {{ *}}1;
// MIXED-NOT: wgmma.mma_async.sync.aligned.m64n128k16
// MIXED-DAG: cvt.rn.satfinite.e4m3x2.f32
// MIXED-DAG: st.shared.b16
// MIXED-DAG: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// MIXED-NOT: stmatrix

// CUTLASS's ScaledLinCombPerRowBiasEltActAmaxAux<ReLU> with e4m3 D and
// e5m2 aux: scale_a/b/c/d/aux read from device memory, D and aux
// converted with satfinite, amax_d and amax_aux combined with atomic max
// on the f32 bits (absmax >= 0).
// SCALED: .entry fp8_scaled_amax_aux(
// SCALED-DAG: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// SCALED-DAG: cvt.rn.satfinite.e4m3x2.f32
// SCALED-DAG: cvt.rn.satfinite.e5m2x2.f32
// SCALED-DAG: atom.global.max.u32
// SCALED-DAG: st.shared.b16

// e5m2 x e4m3 -> bf16 D with an e4m3 per-row scale and an e5m2 aux load,
// warp_specialized: 8-bit sources widened through f16, bf16 D by stmatrix.
// VEC: .entry fp8_e5m2_vec_bf16(
// VEC-DAG: wgmma.mma_async.sync.aligned.m64n128k32.f32.e5m2.e4m3
// VEC-DAG: cvt.rn.f16x2.e4m3x2
// VEC-DAG: cvt.rn.f16x2.e5m2x2
// VEC-DAG: stmatrix.sync.aligned.m8n8.x4.shared.b16

// 128x256x128 cooperative, e5m2 x e5m2 -> f32 D: wgmma N = 256.
// WIDE: .entry fp8_wide_f32(
// WIDE-COUNT-4: wgmma.mma_async.sync.aligned.m64n256k32.f32.e5m2.e5m2
// WIDE-DAG: st.shared.v2.b32

// Promoted accumulation every 2 k-tiles: inside the k loop, a drain
// (wait_group 0) and 64 f32 adds (add.rn: never contracted into an fma)
// of the partial into the total per
// promotion, besides the wait_group 1 that keeps one group in flight.
// PROMOTED: .entry fp8_promoted(
// PROMOTED: wgmma.mma_async.sync.aligned.m64n128k32.f32.e4m3.e4m3
// PROMOTED: wgmma.wait_group.sync.aligned 1;
// PROMOTED: wgmma.wait_group.sync.aligned 0;
// PROMOTED-COUNT-64: add.rn.f32

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

wsgemm.gemm @fp8_mixed_e4m3_d a(f8E4M3FN) b(f8E5M2) d(f8E4M3FN) {
^bb0(%acc: f32):
  %alpha = epi.scalar param ["alpha"] : f32
  %d = arith.mulf %alpha, %acc : f32
  epi.store %d : f32
  epi.yield
}

wsgemm.gemm @fp8_scaled_amax_aux a(f8E4M3FN) b(f8E4M3FN) c(bf16) d(f8E4M3FN) {
^bb0(%acc: f32):
  epi.fusion ScaledLinCombPerRowBiasEltActAmaxAux %acc
      activation #epi.activation<relu> bias bf16 aux f8E5M2 : f32
  epi.yield
}

wsgemm.gemm @fp8_e5m2_vec_bf16 a(f8E5M2) b(f8E4M3FN) d(bf16)
    config #wsgemm.config<tile = [128, 128, 128], schedule = warp_specialized> {
^bb0(%acc: f32):
  %s = epi.load_vec_m "row_scale" : f8E4M3FN -> f32
  %r = epi.aux_load "residual" : f8E5M2 -> f32
  %x = arith.mulf %acc, %s : f32
  %d = arith.addf %x, %r : f32
  epi.store %d : f32
  epi.yield
}

wsgemm.gemm @fp8_wide_f32 a(f8E5M2) b(f8E5M2) d(f32)
    config #wsgemm.config<tile = [128, 256, 128], schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}

wsgemm.gemm @fp8_promoted a(f8E4M3FN) b(f8E4M3FN) d(f8E4M3FN)
    config #wsgemm.config<promotion_interval = 2> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
