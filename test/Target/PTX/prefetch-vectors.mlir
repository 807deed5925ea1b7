// REQUIRES: ptxas
// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=all --spills=error
// RUN: FileCheck %s --check-prefix=DEC --input-file=%t/pf_decode_bias.ptx
// RUN: FileCheck %s --check-prefix=BIG --input-file=%t/pf_coop_over_budget.ptx
// RUN: FileCheck %s --check-prefix=PP --input-file=%t/pf_pingpong_vecn.ptx

// Broadcast vectors (epi.load_vec_m / load_vec_n) are loaded before the
// tile's mainloop while the thread's elements of them fit 8 registers
// (Epilogue::prefetchVectors), so the global loads' latency passes under
// the mainloop instead of after it (and after split-K's wait for the other
// splits). A vector past that budget is loaded where the epilogue reads it.

// The decode tile: a bias of 2 rows per thread (two consumer warpgroups of
// 64 rows), loaded after the role's grid-dependency wait and before the
// first wgmma and the split-K flag; the epilogue loads nothing more.
// DEC-LABEL: .entry pf_decode_bias(
// DEC: griddepcontrol.wait;
// DEC: griddepcontrol.wait;
// DEC-COUNT-2: ld.global.b16
// DEC-NOT: ld.global.b16
// DEC: wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16
// DEC-NOT: ld.global.b16
// DEC: ld.acquire.gpu.global.b32
// DEC-NOT: ld.global.b16
// DEC: ret;
wsgemm.gemm @pf_decode_bias a(i4) b(bf16) d(bf16, m_major)
    dequant_a #wsgemm.dequant<scale = bf16, group = 128, zero = ui4>
    config #wsgemm.config<tile = [128, 16, 128], schedule = cooperative,
                          split_k = 4, ctas_per_sm = 2, store = direct> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : bf16 -> f32
  %z = arith.addf %acc, %bias : f32
  epi.store %z : f32
  epi.yield
}

// 128 x 128: the row vector's 2 elements are prefetched, the column
// vector's 32 (f32: ld.global.b32) are not: they follow the mainloop.
// BIG-LABEL: .entry pf_coop_over_budget(
// BIG-COUNT-2: ld.global.b16
// BIG-NOT: ld.global
// BIG: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16
// BIG-NOT: ld.global.b16
// BIG-COUNT-32: ld.global.b32
// BIG-NOT: ld.global
// BIG: ret;
wsgemm.gemm @pf_coop_over_budget a(f16) b(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = cooperative> {
^bb0(%acc: f32):
  %bias = epi.load_vec_m "bias" : bf16 -> f32
  %col = epi.load_vec_n "col" : f32 -> f32
  %z = arith.addf %acc, %bias : f32
  %w = arith.mulf %z, %col : f32
  epi.store %w : f32
  epi.yield
}

// Pingpong: each warpgroup's tile loads its 4 column-vector elements (tile
// N 16: two 8-column chunks, two columns each) before its mainloop turn.
// PP-LABEL: .entry pf_pingpong_vecn(
// PP-COUNT-4: ld.global.b16
// PP-NOT: ld.global
// PP: wgmma.mma_async.sync.aligned.m64n16k16.f32.bf16.bf16
// PP-NOT: ld.global
// PP: ret;
wsgemm.gemm @pf_pingpong_vecn a(bf16) b(bf16) d(bf16)
    config #wsgemm.config<tile = [64, 16, 64], schedule = pingpong> {
^bb0(%acc: f32):
  %col = epi.load_vec_n "col" : f16 -> f32
  %z = arith.addf %acc, %col : f32
  epi.store %z : f32
  epi.yield
}
