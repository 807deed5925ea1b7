// REQUIRES: ptxas
// RUN: rm -rf %t && ws-gemm-compile %s -o %t --emit=ptx
// RUN: FileCheck %s --check-prefix=PP --input-file=%t/pingpong_mmajor.ptx
// RUN: FileCheck %s --check-prefix=MN --input-file=%t/coop_mmajor_nmajor.ptx
// RUN: %ptxas -arch=sm_90a -v %t/pingpong_mmajor.ptx -o %t/a.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: %ptxas -arch=sm_90a -v %t/coop_mmajor_nmajor.ptx -o %t/b.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS

// Pingpong with an M-major A: 384 threads (a producer warpgroup and two
// consumer warpgroups that each own a whole 128-row tile: two m64 wgmma
// per k-step), register budgets, 4 order mbarriers of 128 arrivals each
// beside the pipelines' barriers, and wgmma reading A transposed
// (imm-trans-a = 1), loaded as 128 / 64 = 2 TMA boxes of 64 M-columns.
// PP: .entry pingpong_mmajor(
// PP: .maxntid 384, 1, 1
// PP: mov.b32 [[N1:%r[0-9]+]], 128;
// PP-NEXT: mbarrier.init.shared.b64 [{{.*}}], [[N1]];
// PP-NEXT: mbarrier.init.shared.b64 [{{.*}}], [[N1]];
// PP: mov.b32 [[N2:%r[0-9]+]], 128;
// PP-NEXT: mbarrier.init.shared.b64 [{{.*}}], [[N2]];
// PP-NEXT: mbarrier.init.shared.b64 [{{.*}}], [[N2]];
// PP-DAG: setmaxnreg.dec.sync.aligned.u32 40;
// PP-DAG: setmaxnreg.inc.sync.aligned.u32 232;
// PP-DAG: wgmma.mma_async.sync.aligned.m64n128k16.f32.f16.f16 {{.*}}, p, 1, {{ *}}1, 1, {{ *}}0;
// PP-DAG: mbarrier.try_wait.parity
// PP-DAG: cp.async.bulk.wait_group.read 0;
// Each consumer warpgroup meets its own 128 threads at its named barrier.
// PP-DAG: bar.sync{{[[:space:]]+}}{{%r[0-9]+|[1-9]}}, 128;

// Cooperative with M-major A and N-major B: both operands transposed.
// MN: .entry coop_mmajor_nmajor(
// MN: .maxntid 384, 1, 1
// MN: wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 {{.*}}, p, 1, {{ *}}1, 1, {{ *}}1;

// PTXAS: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads

wsgemm.gemm @pingpong_mmajor a(f16, m_major) b(f16) c(f16) d(f16)
    config #wsgemm.config<tile = [128, 128, 64], schedule = pingpong> {
^bb0(%acc: f32):
  %beta = epi.scalar param ["beta"] : f32
  %c = epi.load_src : f32
  %y = arith.mulf %beta, %c : f32
  %d = arith.addf %acc, %y : f32
  epi.store %d : f32
  epi.yield
}

wsgemm.gemm @coop_mmajor_nmajor a(bf16, m_major) b(bf16, n_major) d(bf16)
    config #wsgemm.config<tile = [128, 256, 64], schedule = cooperative> {
^bb0(%acc: f32):
  epi.store %acc : f32
  epi.yield
}
