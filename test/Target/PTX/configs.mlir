// REQUIRES: ptxas
// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=ptx
// RUN: FileCheck %s --check-prefix=BATCHED --input-file=%t/batched_bf16_nmajor.ptx
// RUN: FileCheck %s --check-prefix=WIDE --input-file=%t/wide_f32.ptx
// RUN: %ptxas -arch=sm_90a -v %t/batched_bf16_nmajor.ptx -o %t/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_90a -v %t/wide_f32.ptx -o %t/b.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// The instruction forms a config changes, on two kernels.

// Batched, bf16, N-major B: TMA boxes gain the batch coordinate (3d loads
// and stores), wgmma reads bf16 with B transposed (imm-trans-b = 1), one
// consumer warpgroup of tile N = 128.
// BATCHED: .entry batched_bf16_nmajor(
// BATCHED-DAG: cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [{{.*}}], [{{.*}}, {{{.*}}, {{.*}}, {{.*}}}], [{{.*}}];
// BATCHED-DAG: cp.async.bulk.tensor.3d.global.shared::cta.tile.bulk_group [{{.*}}, {{{.*}}, {{.*}}, {{.*}}}], [{{.*}}];
// BATCHED-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.bf16.bf16 {{.*}}, p, 1, {{ *}}1, 0, {{ *}}1;
// BATCHED-DAG: cvt.rn.bf16x2.f32
// BATCHED-DAG: stmatrix.sync.aligned.m8n8.x4.shared.b16
// The epilogue's named barrier: id warpgroup + 1 (never 0, the CTA-wide
// one) and the warpgroup's 128 threads.
// BATCHED-DAG: bar.sync{{[[:space:]]+}}{{%r[0-9]+|[1-9]}}, 128;
// BATCHED-NOT: setmaxnreg

// A 128 x 256 tile of two cooperative warpgroups with f32 D and register
// budgets: wgmma N = 256, D staged by 64-bit st.shared (no stmatrix), 2d
// TMA, setmaxnreg on both sides.
// WIDE: .entry wide_f32(
// WIDE-DAG: wgmma.mma_async.sync.aligned.m64n256k16.f32.f16.f16
// WIDE-DAG: st.shared.v2.b32
// WIDE-DAG: cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group
// WIDE-DAG: setmaxnreg.dec.sync.aligned.u32{{[[:space:]]+}}40;
// WIDE-DAG: setmaxnreg.inc.sync.aligned.u32{{[[:space:]]+}}232;
// WIDE-NOT: stmatrix

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

wsgemm.gemm @batched_bf16_nmajor batched a(bf16) b(bf16, n_major) c(bf16) d(bf16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = warp_specialized> {
^bb0(%acc: f32):
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %y = arith.mulf %beta, %c : f32
  %d = arith.addf %acc, %y : f32
  epi.store %d : f32
  epi.yield
}

wsgemm.gemm @wide_f32 a(f16) b(f16) d(f32)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative,
                          producer_regs = 40, consumer_regs = 232> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
